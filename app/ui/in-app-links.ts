import { useEffect } from "react";
import { useNavigate, useSubmit } from "react-router";

// Client-side navigation for plain `<a href="/path" data-discover="true">` links inside the elements
// marked `data-in-app-links` (the sidebar's list, the library's and the admin's rows, the admin
// tabs, the dashboard): one click listener for the signed-in shell instead of a React Router <Link>
// per link. A Link resolves its path, encodes it and sets up its own click handler while the server
// renders it: the sidebar's dozen or more NavLinks were about a tenth of a signed-in page's server
// CPU (docs/decisions/0230), a library page's twenty rows' links about 5 % (0346). `data-discover`
// keeps React Router's route discovery for them, as a Link's; a modified or non-primary click, or a
// link with a target or `download`, is left to the browser. `data-in-app-links="keep-scroll"` keeps
// the scroll position, as a Link's `preventScrollReset`.
//
// The listener is on the window and follows only a click nothing has handled yet: a <Link> inside a
// marked element handles its own click first (React listens on the document) and keeps its options.
// A link there that must load as a document (a resource route, `reloadDocument`) needs `download`,
// a target, or a place outside the marked element.

/** The attribute that marks an element whose plain links the shell follows client-side ("keep-scroll": without scrolling to the top). */
export const IN_APP_LINKS = "data-in-app-links";

/**
 * The attribute that marks an element whose plain `<form>`s the shell submits client-side, as a
 * React Router `<Form>` would (docs/decisions/0354): `<form … data-discover="true" action="/path"
 * method="post">`, the markup of a `<Form method="post">`, without the Form's hooks per form on the
 * server (`useFormAction`, `useSubmit`). Without JavaScript the form posts as a page, as a Form does.
 */
export const IN_APP_FORMS = "data-in-app-forms";

/**
 * Follows same-origin links inside marked elements with React Router's navigation, as a <Link> would,
 * and submits the plain forms inside elements marked IN_APP_FORMS as a <Form> would. Called once, by the shell.
 */
export function useInAppLinks() {
  const navigate = useNavigate();
  const submit = useSubmit();
  useEffect(() => {
    // A <Form>'s own submit handler, for a plain form in a marked element: a submission nothing has
    // prevented (a page's onSubmit check runs first: React listens on the root, this on the window),
    // sent with the pressed button (its name, value, formmethod, formaction) as React Router's navigation.
    const onSubmit = (event: SubmitEvent) => {
      if (event.defaultPrevented) return;
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.closest(`[${IN_APP_FORMS}]`)) return;
      if (form.target && form.target !== "_self") return;
      const submitter = event.submitter instanceof HTMLButtonElement || event.submitter instanceof HTMLInputElement ? event.submitter : null;
      if (new URL(submitter?.formAction || form.action, window.location.href).origin !== window.location.origin) return;
      event.preventDefault();
      submit(submitter ?? form, { method: (submitter?.getAttribute("formmethod") || form.getAttribute("method") || "get") as "get" | "post" });
    };
    window.addEventListener("submit", onSubmit);
    return () => window.removeEventListener("submit", onSubmit);
  }, [submit]);
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const area = link.closest(`[${IN_APP_LINKS}]`);
      if (!area) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(to, { replace: to === here, preventScrollReset: area.getAttribute(IN_APP_LINKS) === "keep-scroll" });
    };
    window.addEventListener("click", onClick);
    return () => window.removeEventListener("click", onClick);
  }, [navigate]);
}

/** Whether `path` is the page at `pathname` (a NavLink's `end` match: exact, any case, a trailing slash ignored). */
export function isCurrentPath(pathname: string, path: string): boolean {
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return here.toLowerCase() === path.toLowerCase();
}
