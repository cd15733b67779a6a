// Types of the parts of bench-cpu.mjs that tests/unit/scripts/bench-cpu.test.ts reads.
export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
};
export declare function sampleSpacing(profile: CpuProfile): number;
export declare function samplesPerWindow(profile: CpuProfile, bounds: number[]): number[];
