import { useLocation, useNavigation } from "react-router";

// The spec's admin guard screen ('Verifying admin access...'), and the shell's cover while a
// navigation into an admin page waits for its loaders (which run the server's admin guard).

export const ADMIN_PATH = /^\/(admin(\/|$)|chat-management$|user-retention$|ai-thumbnail-editor$)/;

/** The spec's admin guard screen, shown while the server checks admin access. */
export function AdminGuardScreen() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[50vh] flex-col items-center justify-center gap-4 p-8">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden="true" />
      <p className="text-slate-600">Verifying admin access...</p>
    </div>
  );
}

/**
 * While a navigation into an admin page is loading (its loaders run the admin guard), cover the
 * page with the guard screen. The server guard is the authority; this is only what the wait
 * looks like.
 */
export function AdminGuardPending() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const target = navigation.state === "loading" ? navigation.location?.pathname : undefined;
  // A new admin page (not a filter or page change of this one, nor a form's reload).
  const entering = target !== undefined && target !== pathname && ADMIN_PATH.test(target) && navigation.formMethod === undefined;
  if (!entering) return null;
  // Below the header; the sidebar (z-40) stays usable above it.
  return (
    <div className="fixed inset-x-0 top-16 bottom-0 z-30 bg-slate-50">
      <AdminGuardScreen />
    </div>
  );
}
