import * as PopoverPrimitive from "@radix-ui/react-popover";
import type { ComponentPropsWithRef } from "react";

// A non-modal panel anchored to its trigger (Radix): Escape and a click outside close it, focus
// moves in when it opens and back to the trigger when it closes. Its content keeps its own roles
// (links stay links, buttons stay buttons), unlike a dropdown menu's items.

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverClose = PopoverPrimitive.Close;
export const PopoverAnchor = PopoverPrimitive.Anchor;

export function PopoverContent({ className = "", align = "end", sideOffset = 8, ...props }: ComponentPropsWithRef<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        align={align}
        sideOffset={sideOffset}
        className={`z-50 rounded-lg border border-slate-200 bg-white p-1 shadow-lg outline-none ${className}`}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}
