import type { IconNode } from "lucide";
import { shapeMarkup } from "~/ui/icons";

/**
 * What `<Icon className={className} aria-hidden="true" />` (app/ui/icons.ts) writes, as a string: for
 * the library row's markup given to React whole (docs/decisions/0354). `className` is ours, a constant.
 */
export function iconHtml(shape: IconNode, className: string): string {
  return `<svg viewBox="0 0 24 24" aria-hidden="true" class="icon ${className}">${shapeMarkup(shape)}</svg>`;
}
