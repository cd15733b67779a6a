// Extra routes for scripts/bench-pages.mjs: the sign-in page and a signed-in dashboard.
export default async function routes(base) {
  const res = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "signin", email: "creator@shortbeat.test", password: "Shortbeat#2026" }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("sb_session="));
  if (!cookie) throw new Error(`sign-in for the benchmark failed (HTTP ${res.status})`);
  return [
    { name: "/auth", path: "/auth" },
    { name: "/dashboard (signed in)", path: "/dashboard", headers: { Cookie: cookie } },
  ];
}
