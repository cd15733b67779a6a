import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { TEST_PASSWORD, passwordBeforeAll, postForm, toastOf } from "../helpers";

// Issue 42 §3: a brand-new account's first sign-in said "Welcome back!". The first sign-in (no
// earlier one recorded on the profile) now says "Welcome to Shortbeat!"; every later one "Welcome back!".

const password = passwordBeforeAll();
let n = 0;
const signIn = (email: string) =>
  postForm("/auth", { intent: "signin", email, password: TEST_PASSWORD }, { headers: { "CF-Connecting-IP": `203.0.113.${++n}` } });

describe("the sign-in greeting", () => {
  it("welcomes a new account on its first sign-in, and welcomes it back afterwards", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const first = await signIn(user.email);
    expect(first.status).toBe(302);
    expect(await toastOf(first)).toEqual({ title: "Welcome to Shortbeat!", description: "You're signed in to your new Shortbeat account." });

    const second = await signIn(user.email);
    expect(await toastOf(second)).toEqual({ title: "Welcome back!", description: "Successfully logged in to your Shortbeat account" });
  });
});
