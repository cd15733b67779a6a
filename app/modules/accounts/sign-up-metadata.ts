// The sign-up metadata of spec section 3, stored with every account as sent. One builder so that
// password sign-up, Google sign-up and the demo seed write the same shape. No imports: the seed
// loads this file from Node directly.

export type SignUpMetadata = {
  full_name: string | null;
  referral_code: string | null;
  agency_slug: string | null;
  agency_name: string | null;
  youtube_channel_url: string | null;
  subscriber_count: number;
  monthly_views: number;
  wants_to_be_clipper: boolean;
  clipper_agreement_accepted: boolean;
  provider?: string;
};

/** The spec's fields with their empty values ('0 if empty' for the counts), then what was sent. */
export function signUpMetadata(sent: Partial<SignUpMetadata>): SignUpMetadata {
  return {
    full_name: null,
    referral_code: null,
    agency_slug: null,
    agency_name: null,
    youtube_channel_url: null,
    subscriber_count: 0,
    monthly_views: 0,
    wants_to_be_clipper: false,
    clipper_agreement_accepted: false,
    ...sent,
  };
}
