import * as MenuPrimitive from "@radix-ui/react-dropdown-menu";
import type { ComponentPropsWithRef } from "react";

// A menu of actions (Radix): arrow keys move between items, typing jumps to one, Escape closes,
// focus returns to the trigger. Items are role="menuitem"; for a panel whose links and buttons keep
// their own roles, use Popover instead.

export const DropdownMenu = MenuPrimitive.Root;
export const DropdownMenuTrigger = MenuPrimitive.Trigger;
export const DropdownMenuGroup = MenuPrimitive.Group;

export function DropdownMenuContent({ className = "", align = "end", sideOffset = 8, ...props }: ComponentPropsWithRef<typeof MenuPrimitive.Content>) {
  return (
    <MenuPrimitive.Portal>
      <MenuPrimitive.Content
        align={align}
        sideOffset={sideOffset}
        className={`z-50 min-w-48 rounded-lg border border-slate-200 bg-white p-1 shadow-lg outline-none ${className}`}
        {...props}
      />
    </MenuPrimitive.Portal>
  );
}

export function DropdownMenuItem({ className = "", ...props }: ComponentPropsWithRef<typeof MenuPrimitive.Item>) {
  return (
    <MenuPrimitive.Item
      className={`flex cursor-default items-center gap-2 rounded px-3 py-2 text-sm text-slate-700 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-slate-100 ${className}`}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ className = "", ...props }: ComponentPropsWithRef<typeof MenuPrimitive.Label>) {
  return <MenuPrimitive.Label className={`px-3 py-2 text-xs font-semibold text-slate-500 ${className}`} {...props} />;
}

export function DropdownMenuSeparator({ className = "", ...props }: ComponentPropsWithRef<typeof MenuPrimitive.Separator>) {
  return <MenuPrimitive.Separator className={`my-1 h-px bg-slate-100 ${className}`} {...props} />;
}
