// Every action that takes fields answers a body that is not a readable form with 400 or 415 and
// changes nothing (issue 10, item 4): JSON, text/plain, no body at all, and broken multipart,
// each sent by a kind of user the guard lets through, so the body parser is what answers.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "~/platform/crypto.server";
import { signInAs } from "../../factories/users";
import { fetchApp, ORIGIN } from "../helpers";
import { ACTIONS, actionOutcome, worldReady, cookieFor, labelOf, post, type ActionCase, type Guard, type Kind, type Variant, type World } from "./actions";
import { fingerprint } from "./db-fingerprint";

let world: World;
let n = 0;

beforeAll(async () => {
  world = await worldReady();
}, 180_000);

/** Who sends the bodies: a kind the action's guard lets through. */
const ACTOR: Record<Guard, Kind> = {
  public: "anonymous",
  "signed-in": "creator",
  approved: "creator",
  partner: "partner",
  admin: "admin",
  agency: "agency",
  api: "creator",
  "api-approved": "creator",
  "api-admin": "admin",
  "not-found": "anonymous",
  // No kind of the matrix has a deletion pending; the action takes no fields, so no body is tried.
  "pending-deletion": "creator",
  // No kind of the matrix has an unfinished Google sign-up (its bodies: accounts/finish-sign-up.test.ts).
  "unfinished-sign-up": "creator",
};

const BOUNDARY = "----shortbeat-matrix";

type BadBody = { body: string | null; contentType?: string };

/**
 * Bodies that are not a readable form, each carrying the action's own valid fields where it can,
 * and the answer issue 10 asks for: not a form → 415, a form that cannot be read → 400.
 */
const BAD_BODIES: [string, (fields: Record<string, string>) => BadBody, 400 | 415][] = [
  ["a JSON body", (fields) => ({ body: JSON.stringify(fields), contentType: "application/json" }), 415],
  // A form's fields as text/plain (what an enctype="text/plain" form on another site sends).
  ["a text/plain body", (fields) => ({ body: new URLSearchParams(fields).toString(), contentType: "text/plain;charset=UTF-8" }), 415],
  ["no body and no content type", () => ({ body: null }), 415],
  [
    "broken multipart",
    (fields) => ({
      // The first part is whole, the second is cut off inside its headers, and no closing boundary.
      body:
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\n${fields.intent ?? "x"}\r\n` + `--${BOUNDARY}\r\nContent-Disposition: form-da`,
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    }),
    400,
  ],
];

const variantsOf = (c: ActionCase): Variant[] => (c.resource ? ["page"] : ["page", "data"]);

const CASES = ACTIONS.filter((c) => c.main && c.takesFields);

describe.each(CASES.map((c) => [labelOf(c), c] as const))("%s", (label, c) => {
  const rows = BAD_BODIES.flatMap(([name, make, status]) => variantsOf(c).map((variant) => [name, variant, status, make] as const));

  it.each(rows)(`answers %s (%s) with %s as ${ACTOR[c.guard]}, and changes nothing`, async (name, variant, status, make) => {
    n += 1;
    const kind = ACTOR[c.guard];
    const cookie = await cookieFor(world, kind, c.fresh);
    const { body, contentType } = make(c.body({ world, kind, n }).fields);
    const before = await fingerprint();
    const res = await post(c.path, variant, cookie, body, contentType);
    const what = `${label} ${variant} with ${name}`;
    expect(await actionOutcome(res), what).toBe(String(status));
    expect(await fingerprint(), `${what}: nothing changed`).toEqual(before);
  });
});

describe("sign-out takes no fields", () => {
  const bodies: [string, BadBody][] = [
    ["an empty body with no content type (the account-events socket's sign-out)", { body: null }],
    ["an empty form", { body: "", contentType: "application/x-www-form-urlencoded" }],
    ...BAD_BODIES.map(([name, make]) => [name, make({})] as [string, BadBody]),
  ];

  it.each(bodies)("signs out with %s", async (_name, { body, contentType }) => {
    const { token, cookie } = await signInAs(world.users.creator.id);
    const res = await post("/auth/sign-out", "page", cookie, body, contentType);
    expect(await actionOutcome(res)).toBe("→/auth");
    const left = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE id = ?").bind(sha256Hex(token)).first<{ n: number }>();
    expect(left?.n, "the session is gone").toBe(0);
  });
});

describe("the CSP report endpoint reads its own JSON body", () => {
  const bodies: [string, BadBody][] = [
    ["a report", { body: JSON.stringify({ "csp-report": { "blocked-uri": "inline" } }), contentType: "application/csp-report" }],
    ...BAD_BODIES.map(([name, make]) => [name, make({})] as [string, BadBody]),
  ];

  it.each(bodies)("answers %s with 204 (admins too), never a server error", async (_name, { body, contentType }) => {
    for (const kind of ["anonymous", "admin"] as const) {
      const res = await fetchApp("/api/csp-report", {
        method: "POST",
        headers: {
          Origin: ORIGIN,
          ...(contentType ? { "Content-Type": contentType } : {}),
          ...(kind === "admin" ? { Cookie: world.users.admin.cookie } : {}),
        },
        body,
      });
      expect(res.status, kind).toBe(204);
    }
  });
});
