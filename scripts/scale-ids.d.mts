// Types of scripts/scale-ids.mjs, for the tests that import it.
export declare const SCALE_USER_PREFIX: string;
export declare function scaleUserId(i: number): string;
export declare function scaleChannelRowId(i: number): string;
export declare function scaleChannelId(i: number): string;
export declare function scaleCreatorId(i: number): string;
export declare function scaleEmail(i: number): string;
export declare function scaleVideoId(i: number, v: number): string;
export declare function scaleStripeAccount(i: number): string;
export declare function prng(seed: number): () => number;
export declare function monthBefore(date: Date, monthsBack: number): string;
