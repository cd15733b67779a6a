import * as DialogPrimitive from "@radix-ui/react-dialog";
import { type ComponentPropsWithRef, type ReactNode, useId } from "react";

// A modal dialog on Radix: focus moves in and stays in, Escape and the close controls close it,
// the rest of the page is hidden from assistive technology while it is open.

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;
export const DialogDescription = DialogPrimitive.Description;

type DialogContentProps = Omit<ComponentPropsWithRef<typeof DialogPrimitive.Content>, "title"> & {
  /** The heading; it names the dialog (aria-labelledby), also in the server's HTML. */
  title: ReactNode;
  /**
   * Render into document.body (default), or in place: a dialog that is a state of the page (a query
   * parameter, see ConfirmDialog) stays in place so it is in the server's HTML and works without
   * JavaScript.
   */
  portal?: boolean;
};

/** The backdrop and the panel: a title, then the content. */
export function DialogContent({ title, portal = true, className = "", children, ...props }: DialogContentProps) {
  // Our own id: Radix sets aria-labelledby only after an effect, which the server never runs.
  const titleId = useId();
  const panel = (
    <DialogPrimitive.Overlay className="fixed inset-0 z-50 flex items-end justify-center bg-slate-900/50 p-3 sm:items-center sm:p-6">
      <DialogPrimitive.Content
        aria-labelledby={titleId}
        aria-describedby={undefined}
        className={`max-h-[90vh] w-full max-w-md overflow-y-auto rounded-xl border border-slate-200 bg-white p-5 shadow-xl ${className}`.trim()}
        {...props}
      >
        <DialogPrimitive.Title id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </DialogPrimitive.Title>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Overlay>
  );
  return portal ? <DialogPrimitive.Portal>{panel}</DialogPrimitive.Portal> : panel;
}
