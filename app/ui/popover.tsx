import { createContext, useContext, useEffect, useId, useRef, type ComponentPropsWithoutRef, type ReactNode } from "react";

// A non-modal panel anchored to its trigger: Escape and a click outside close it, focus moves in
// when it opens and back to the trigger when Escape closes it. Its content keeps its own roles
// (links stay links, buttons stay buttons), unlike a dropdown menu's items.
//
// Written here rather than taken from Radix: the popover is in the signed-in shell, so it is on
// every signed-in page's first load, and Radix's popover brings a positioning engine and focus
// layers (about 12 KB gzip) for one panel under one button (docs/decisions/0086).

type PopoverState = { open: boolean; setOpen: (open: boolean) => void; id: string; triggerRef: React.RefObject<HTMLButtonElement | null> };
const PopoverContext = createContext<PopoverState | null>(null);

function usePopover(part: string): PopoverState {
  const state = useContext(PopoverContext);
  if (!state) throw new Error(`${part} must be inside <Popover>`);
  return state;
}

/** The popover's root (controlled): wraps the trigger and the panel, which is placed under it. */
export function Popover({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  const id = useId();
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const rootRef = useRef<HTMLSpanElement | null>(null);
  const change = useRef(onOpenChange);
  change.current = onOpenChange;
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (rootRef.current && e.target instanceof Node && !rootRef.current.contains(e.target)) change.current(false);
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("focusin", outside);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("focusin", outside);
    };
  }, [open]);
  return (
    <PopoverContext.Provider value={{ open, setOpen: onOpenChange, id, triggerRef }}>
      <span ref={rootRef} className="relative inline-flex">
        {children}
      </span>
    </PopoverContext.Provider>
  );
}

/** The button that opens and closes the panel. */
export function PopoverTrigger({ onClick, ...props }: ComponentPropsWithoutRef<"button">) {
  const { open, setOpen, id, triggerRef } = usePopover("PopoverTrigger");
  return (
    <button
      ref={triggerRef}
      type="button"
      aria-haspopup="dialog"
      aria-expanded={open}
      aria-controls={open ? id : undefined}
      data-state={open ? "open" : "closed"}
      onClick={(e) => {
        onClick?.(e);
        if (!e.defaultPrevented) setOpen(!open);
      }}
      {...props}
    />
  );
}

/** The panel, under the trigger, aligned to its end (or start). Rendered only while open. */
export function PopoverContent({ className = "", align = "end", children, ...props }: ComponentPropsWithoutRef<"div"> & { align?: "start" | "end" }) {
  const { open, setOpen, id, triggerRef } = usePopover("PopoverContent");
  const ref = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (open) ref.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div
      ref={ref}
      id={id}
      role="dialog"
      tabIndex={-1}
      data-state="open"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        setOpen(false);
        triggerRef.current?.focus();
      }}
      className={`absolute top-full z-50 mt-2 rounded-lg border border-slate-200 bg-white p-1 shadow-lg outline-none ${align === "end" ? "right-0" : "left-0"} ${className}`}
      {...props}
    >
      {children}
    </div>
  );
}
