import { expect } from "vitest";
import type { TestUser } from "../factories/users";
import { ORIGIN, fetchApp, postForm, withCookie } from "./helpers";
import { present } from "../helpers/present";

// Links a user's TikTok / Instagram account the way a person does (decisions 0299, 0300): "Link" on
// /channels → the platform's (stand-in's) authorize page, signing in as `account` → back to
// /channels/link/<platform> with the code. The callback's answer.

const pair = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => present(c.split(";")[0], `the pair in ${c}`))
    .find((c) => c.startsWith(`${name}=`)) ?? null;

export async function linkSocial(user: TestUser, platform: "tiktok" | "instagram", account: string | null): Promise<Response> {
  const start = await postForm("/channels", { intent: "link-social", platform }, withCookie(user.cookie));
  expect(start.status, await start.clone().text()).toBe(302);
  const flow = pair(start, `__Host-sb_${platform}_oauth`);
  expect(flow).toBeTruthy();
  const authorize = new URL(start.headers.get("Location") ?? "", ORIGIN);
  if (account === null) authorize.searchParams.set("deny", "1");
  else authorize.searchParams.set("account", account);
  const back = await fetchApp(authorize.pathname + authorize.search);
  expect(back.status, await back.clone().text()).toBe(302);
  const callback = new URL(back.headers.get("Location") ?? "", ORIGIN);
  expect(callback.pathname).toBe(`/channels/link/${platform}`);
  return fetchApp(callback.pathname + callback.search, withCookie(`${user.cookie}; ${flow}`));
}
