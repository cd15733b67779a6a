// The admin's campaign form, filled in: a draft that starts yesterday and ends in ten days,
// $2.50 per 1,000 views, a $500.00 budget and a slug of its own. Tests override what they look at.

/** A date as the form's datetime-local field holds it. */
export const localDateTime = (d: Date) => d.toISOString().slice(0, 16);
/** Now plus `n` days. */
export const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000);

/** The fields of the admin's "create" form for a valid campaign, with `over` on top. */
export function campaignFields(over: Record<string, string> = {}): Record<string, string> & { slug: string } {
  return {
    intent: "create",
    brand: "Fizz Cola",
    title: "Summer Fizz",
    slug: `summer-fizz-${crypto.randomUUID().slice(0, 8)}`,
    brief: "Use the track in a Short about your summer.",
    rate: "2.50",
    budget: "500.00",
    startsAt: localDateTime(daysFromNow(-1)),
    endsAt: localDateTime(daysFromNow(10)),
    requiredTrackId: "",
    minSubscribers: "",
    ...over,
  };
}
