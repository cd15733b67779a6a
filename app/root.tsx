import "./lib/zod-config";
import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, data, useLoaderData, useRouteLoaderData } from "react-router";
import { Toaster, toast as showToast } from "sonner";
import type { Route } from "./+types/root";
import "./app.css";
import { GeneralErrorBoundary } from "./components/error-screen";
import { LoadingScreen } from "./components/loading-screen";
import { requestContext } from "~/platform/context.server";
import { appName } from "~/platform/env.server";
import { readToast } from "~/platform/toast.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { nonce, requestId } = context.get(requestContext);
  const { toast, headers } = await readToast(request);
  return data({ nonce, requestId, appName: appName(), toast }, headers ? { headers } : undefined);
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
        <Toaster
          position="top-right"
          closeButton
          toastOptions={{
            // High-contrast colours (WCAG AA) instead of sonner's pastel "rich colors".
            classNames: {
              toast: "!bg-white !text-slate-900 !border !border-slate-300 !shadow-lg",
              title: "!font-semibold",
              description: "!text-slate-700",
              error: "!border-red-300 [&_[data-title]]:!text-red-800",
              success: "!border-emerald-300 [&_[data-title]]:!text-emerald-800",
            },
          }}
        />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : toast.type === "success" ? showToast.success : showToast;
    // Defer one tick so the Toaster is mounted on first load.
    const t = window.setTimeout(() => show(toast.title, { id: toast.id, description: toast.description }), 0);
    return () => window.clearTimeout(t);
  }, [toast]);
  return <Outlet />;
}

export function HydrateFallback() {
  return <LoadingScreen />;
}

export const ErrorBoundary = GeneralErrorBoundary;
