import * as TabsPrimitive from "@radix-ui/react-tabs";
import type { ComponentPropsWithRef } from "react";

// Tabs (Radix): arrow keys move between tabs, each tab controls its panel (aria-controls), the
// selected one is aria-selected. The look is the segmented control of the sign-in screen.

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className = "", ...props }: ComponentPropsWithRef<typeof TabsPrimitive.List>) {
  return <TabsPrimitive.List className={`grid auto-cols-fr grid-flow-col gap-1 rounded-lg bg-slate-100 p-1 ${className}`} {...props} />;
}

export function TabsTrigger({ className = "", ...props }: ComponentPropsWithRef<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={`rounded-md px-3 py-2 text-center text-sm font-semibold text-slate-600 hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm ${className}`}
      {...props}
    />
  );
}

export function TabsContent({ className = "", ...props }: ComponentPropsWithRef<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={`mt-4 outline-none ${className}`} {...props} />;
}
