import { type ReactNode, useRef } from "react";
import { useNavigate } from "react-router";
import { Dialog, DialogContent } from "./dialog";

const FIRST_FIELD = "textarea, input:not([type=hidden]), button[type=submit]";

/**
 * The confirm step of a destructive or important action. It is a state of the page (a query
 * parameter), rendered in place as a modal dialog: without JavaScript it is simply there after the
 * link is followed; with it, focus moves to its first field (or its submit button) and stays in,
 * Escape cancels (navigates to `cancelTo`), and focus goes back where it was.
 */
export function ConfirmDialog({ title, cancelTo, children }: { title: string; cancelTo: string; children: ReactNode }) {
  const navigate = useNavigate();
  const panel = useRef<HTMLDivElement>(null);
  const previous = useRef<HTMLElement | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) navigate(cancelTo, { preventScrollReset: true, replace: true });
      }}
    >
      <DialogContent
        ref={panel}
        title={title}
        portal={false}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          previous.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          panel.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          previous.current?.focus();
        }}
        // Only Escape and the dialog's own controls close it, as before: not a click beside it.
        onPointerDownOutside={(event) => event.preventDefault()}
      >
        <div className="mt-3">{children}</div>
      </DialogContent>
    </Dialog>
  );
}
