import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, data, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { Toaster, toast as showToast } from "~/ui/toaster";
import type { Route } from "./+types/root";
import "./app.css";
import { ADMIN_PATH } from "./components/admin-guard";
import { GeneralErrorBoundary } from "./components/error-screen";
import { LOADING_HELP_MS } from "~/lib/constants";
import { LOADING_SHOW_AFTER_MS, LoadingScreen, pendingPage } from "~/ui/loading-screen";
import { requestContext } from "~/platform/context.server";
import { appName } from "~/platform/env.server";
import { readToast } from "~/platform/toast.server";
import { timeZoneFromCookie } from "~/lib/dates";
import { TimeZoneProvider } from "~/ui/time-zone";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { nonce, requestId } = context.get(requestContext);
  const { toast, headers } = await readToast(request);
  // The person's time zone (the browser's `tz` cookie, checked; UTC until known): dates render in it
  // on the server already, so hydration writes the same text (decision 0314).
  const timeZone = timeZoneFromCookie(request.headers.get("Cookie"));
  return data({ nonce, requestId, appName: appName(), toast, timeZone }, headers ? { headers } : undefined);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.appName ?? "Shortbeat" },
  { name: "description", content: "Empowering creators worldwide" },
];

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.ico" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = rootData?.nonce;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body>
        {children}
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast, timeZone } = useLoaderData<typeof loader>();
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : toast.type === "success" ? showToast.success : showToast;
    // Defer one tick so the Toaster is mounted on first load.
    const t = window.setTimeout(() => show(toast.title, { id: toast.id, description: toast.description }), 0);
    return () => window.clearTimeout(t);
  }, [toast]);
  return (
    <TimeZoneProvider zone={timeZone}>
      <PendingPage />
      <Outlet />
    </TimeZoneProvider>
  );
}

/**
 * Pages load on demand: a navigation to another page that takes longer than a moment shows the
 * loading screen over the page (spec section 2). A move into the admin area already shows the
 * shell's 'Verifying admin access...' screen, so there the loading screen only comes with its
 * 10-second help.
 */
function PendingPage() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const target = pendingPage(navigation, pathname);
  if (target === undefined) return null;
  const guardScreen = ADMIN_PATH.test(target) && navigation.formMethod === undefined;
  return <LoadingScreen key={navigation.location?.key} overlay showAfterMs={guardScreen ? LOADING_HELP_MS : LOADING_SHOW_AFTER_MS} />;
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

export const ErrorBoundary = GeneralErrorBoundary;
