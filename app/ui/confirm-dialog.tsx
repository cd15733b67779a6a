import { type ReactNode, useEffect, useId, useRef } from "react";
import { useNavigate } from "react-router";

const FIRST_FIELD = "textarea, input:not([type=hidden]), button[type=submit]";

/**
 * The confirm step of a destructive or important action. It is a state of the page (a query
 * parameter), rendered in place as the browser's own modal `<dialog>` (no dialog library on the
 * first load: issue 12's budget): without JavaScript it is simply there, open, after the link is
 * followed; with it, it becomes modal (the rest of the page inert), focus moves to its first field
 * (or its submit button) and stays in, Escape cancels (navigates to `cancelTo`), and focus goes back
 * where it was. A click beside the panel does nothing.
 */
export function ConfirmDialog({ title, cancelTo, children }: { title: string; cancelTo: string; children: ReactNode }) {
  const navigate = useNavigate();
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef(() => {});
  cancel.current = () => navigate(cancelTo, { preventScrollReset: true, replace: true });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The server's HTML has it open but not modal; make it modal without a close event.
    dialog.removeAttribute("open");
    dialog.showModal();
    dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    // Escape: the browser may close it even when the cancel event is refused (a second Escape);
    // either way the page state goes back to `cancelTo`.
    const onCancel = (event: Event) => {
      event.preventDefault();
      cancel.current();
    };
    // `close` is dispatched in a task after `dialog.close()`. Under React's StrictMode (the dev
    // server) the effect runs, is torn down (closing the dialog) and runs again (opening it):
    // the first teardown's close event then reaches this listener while the dialog is open
    // again. Only a close that left it closed is the person's cancel.
    const onClose = () => {
      if (!dialog.open) cancel.current();
    };
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onClose);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onClose);
      if (dialog.open) dialog.close();
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      open
      aria-labelledby={titleId}
      className="fixed inset-0 z-50 flex items-end justify-center bg-slate-900/50 p-3 sm:items-center sm:p-6 m-0 h-full max-h-none w-full max-w-none overscroll-contain border-0"
    >
      <div className="max-h-[90vh] w-full max-w-md overflow-y-auto rounded-xl border border-slate-200 bg-white p-5 shadow-xl">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div className="mt-3">{children}</div>
      </div>
    </dialog>
  );
}
