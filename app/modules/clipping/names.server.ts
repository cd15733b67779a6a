import { personById } from "~/modules/accounts/accounts.server";

// The name a clipping notification gives a person (issue 31 §3: "Sam Clipper submitted a clip"):
// their display name (profile's full name), or a role word when they have none. Never an e-mail:
// creators and clippers do not see each other's addresses.

/** The person's display name, or `fallback` ("A clipper", "The creator") when they have none. */
export async function personName(userId: string, fallback: string): Promise<string> {
  const person = await personById(userId);
  return person?.fullName?.trim() || fallback;
}
