import { cloneElement, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from "react";

/**
 * A short hint on hover and on keyboard focus: it describes its trigger (aria-describedby) and
 * never names it, so give an icon button its own aria-label. Escape hides it. Written here rather
 * than taken from Radix: it sits in the signed-in shell, on every page's first load
 * (docs/decisions/0086).
 */
export function Tooltip({
  content,
  children,
  side = "bottom",
}: {
  content: ReactNode;
  /** One focusable element (a button or a link); it is the trigger. */
  children: ReactElement<{ "aria-describedby"?: string }>;
  side?: "top" | "right" | "bottom" | "left";
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = (delay: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setOpen(true), delay);
  };
  const hide = () => {
    window.clearTimeout(timer.current);
    setOpen(false);
  };
  const place = {
    bottom: "top-full left-1/2 mt-1.5 -translate-x-1/2",
    top: "bottom-full left-1/2 mb-1.5 -translate-x-1/2",
    right: "left-full top-1/2 ml-1.5 -translate-y-1/2",
    left: "right-full top-1/2 mr-1.5 -translate-y-1/2",
  }[side];
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the wrapper only listens for hover and focus of its one trigger
    <span
      className="relative inline-flex"
      onPointerEnter={() => show(400)}
      onPointerLeave={hide}
      onFocus={() => show(0)}
      onBlur={hide}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) hide();
      }}
    >
      {cloneElement(children, { "aria-describedby": id })}
      <span
        id={id}
        role="tooltip"
        hidden={!open}
        className={`pointer-events-none absolute z-50 rounded-md bg-slate-900 px-2 py-1 text-xs font-medium whitespace-nowrap text-white shadow-md ${place}`}
      >
        {content}
      </span>
    </span>
  );
}
