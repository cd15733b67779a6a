import type { Format, ThumbnailDocument } from "./layers";

// Types the editor page shares with the server.

export type ProjectSummary = { id: string; name: string; format: Format; version: number; updatedAt: string };
export type ExportSummary = {
  id: string;
  name: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
  url: string;
  sentAt: string | null;
};
export type AiStatus = { available: boolean; reason: string | null };
export type EditorPage = { projects: ProjectSummary[]; exports: ExportSummary[]; ai: AiStatus };
export type LoadedProject = ProjectSummary & { document: ThumbnailDocument; assets: Record<string, string> };
/** A creator's linked channel the editor can open the thumbnail of (decision 0184). */
export type ChannelSource = { id: string; title: string; handle: string | null; hasThumbnail: boolean };
