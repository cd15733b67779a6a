import { createCookie, redirect } from "react-router";
import { toastSchema, type Toast, type ToastInput } from "~/lib/toast";
import { env } from "./env.server";

// Toasts travel in a signed flash cookie, so they survive redirects and work without JS.
function toastCookie(secure: boolean) {
  return createCookie(secure ? "__Host-sb_toast" : "sb_toast", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    secrets: [env.COOKIE_SECRET || "shortbeat-local-cookie-secret"],
    maxAge: 60,
  });
}

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

export async function setToastCookie(request: Request, toast: ToastInput): Promise<string> {
  return toastCookie(isSecureRequest(request)).serialize(toastSchema.parse(toast));
}

export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookie = toastCookie(isSecureRequest(request));
  const raw = await cookie.parse(request.headers.get("Cookie"));
  if (!raw) return { toast: null, headers: null };
  const parsed = toastSchema.safeParse(raw);
  const headers = new Headers({ "Set-Cookie": await cookie.serialize("", { maxAge: 0 }) });
  return { toast: parsed.success ? parsed.data : null, headers };
}

export async function redirectWithToast(request: Request, url: string, toast: ToastInput, init?: ResponseInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await setToastCookie(request, toast));
  return redirect(url, { ...init, headers });
}
