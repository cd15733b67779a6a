// Messages between the editor and its segmentation worker (./segment.worker.ts).

export type SegmentRequest = { id: number; image: ImageBitmap };
export type SegmentReply =
  | { type: "progress"; stage: "loading" | "running"; percent: number }
  | { type: "result"; id: number; mask: Float32Array; width: number; height: number; loadMs: number; runMs: number }
  | { type: "error"; id: number; message: string };
