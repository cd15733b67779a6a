import { z } from "zod";
import "~/lib/forms";
import { oneLine } from "~/lib/sanitize";
import { FONTS, type FontId, FORMATS } from "./layers";
import { DOCUMENT_MAX_CHARS, MAX_LAYERS, PROJECT_NAME_MAX } from "./messages";

export * from "./messages";

// The thumbnail editor's forms and its document schema (the browser checks with them too; the
// actions are the authority).

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const colour = z.string().regex(/^(#[0-9a-fA-F]{6}|transparent)$/, { message: "Colours are #rrggbb." });
const num = (min: number, max: number) => z.number().finite().min(min).max(max);
const base = {
  id,
  name: z.string().max(80),
  x: num(-20000, 20000),
  y: num(-20000, 20000),
  width: num(1, 40000),
  height: num(1, 40000),
  rotation: num(-360, 360),
  hidden: z.boolean(),
};
const fontIds = FONTS.map((f) => f.id) as [FontId, ...FontId[]];

export const layerSchema = z.discriminatedUnion("kind", [
  z.object({ ...base, kind: z.literal("image"), assetId: id }),
  z.object({
    ...base,
    kind: z.literal("text"),
    text: z.string().max(500),
    font: z.enum(fontIds),
    size: num(4, 1000),
    color: colour,
    outlineColor: colour,
    outlineWidth: num(0, 100),
    shadow: z.boolean(),
  }),
  z.object({ ...base, kind: z.literal("shape"), shape: z.enum(["rect", "ellipse"]), fill: colour }),
]);

export const documentSchema = z.object({
  format: z.enum(Object.keys(FORMATS) as ["landscape", "portrait"]),
  background: colour,
  adjust: z.object({ brightness: num(0, 200), contrast: num(0, 200), saturation: num(0, 200) }),
  layers: z.array(layerSchema).max(MAX_LAYERS, { message: `A project holds at most ${MAX_LAYERS} layers.` }),
});

/** The document field: JSON text, bounded, parsed against documentSchema. */
const documentField = z
  .string({ message: "The project could not be read." })
  .max(DOCUMENT_MAX_CHARS, { message: "This project is too large to save." })
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "The project could not be read." });
      return z.NEVER;
    }
  })
  .pipe(documentSchema);

export const saveProjectSchema = z.object({
  intent: z.literal("save-project"),
  projectId: z
    .union([z.literal(""), z.uuid()])
    .optional()
    .default(""),
  version: z.coerce.number().int().min(0).optional().default(0),
  name: z
    .string()
    .optional()
    .default("")
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, { message: "Name the project." })
        .max(PROJECT_NAME_MAX, { message: `The name must be ${PROJECT_NAME_MAX} characters or less.` }),
    )
    // One line of plain text (docs/decisions/0287).
    .transform(oneLine),
  document: documentField,
});
export type SaveProjectInput = z.infer<typeof saveProjectSchema>;

export const exportSchema = z.object({
  intent: z.literal("export"),
  projectId: z
    .union([z.literal(""), z.uuid()])
    .optional()
    .default(""),
  name: z
    .string()
    .optional()
    .default("")
    .transform((v) => oneLine(v).slice(0, PROJECT_NAME_MAX) || "Untitled thumbnail"),
  format: z.enum(["landscape", "portrait"]),
});
export type ExportInput = z.infer<typeof exportSchema>;

export const sendExportSchema = z.object({
  intent: z.literal("send-export"),
  exportId: z.uuid({ message: "Choose an export." }),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: "Enter the creator's e-mail address." })),
  message: z.string().trim().max(500).optional().default(""),
});
export type SendExportInput = z.infer<typeof sendExportSchema>;

export const captionSchema = z.object({
  intent: z.literal("caption-ideas"),
  title: z.string().trim().min(1, { message: "Enter the video title." }).max(200),
});

export const channelThumbnailSchema = z.object({
  intent: z.literal("channel-thumbnail"),
  channelId: z.string().trim().min(1, { message: "Choose a channel." }).max(64),
});

export const backgroundSchema = z.object({
  intent: z.literal("generate-background"),
  prompt: z.string().trim().min(1, { message: "Describe the background." }).max(300),
});
