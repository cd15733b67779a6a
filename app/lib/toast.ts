import { z } from "zod";

export const toastSchema = z.object({
  id: z.string().default(() => crypto.randomUUID()),
  type: z.enum(["message", "success", "error", "info"]).default("message"),
  title: z.string(),
  description: z.string().optional(),
});

export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = z.input<typeof toastSchema>;

/** Route `headers` export that passes an action's Retry-After (429) to the document response. */
export function retryAfterHeaders({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const value = actionHeaders.get("Retry-After");
  return value ? { "Retry-After": value } : {};
}
