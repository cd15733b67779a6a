import { getSettings } from "~/platform/settings.server";
import { percentToBp } from "./split";

// The creator's share at a month (docs/decisions/0123-share-at-a-month.md): the standard share of
// the admin settings (app_settings 'creator_share_percent', 70 by default) stays the single source;
// it is read when a month's revenue is imported and stored on each entry in basis points, so a
// later change of the setting never rewrites a month already imported. Revised shares (accepted
// offers from their effective date) come with the agreement work and will be looked up here.

export async function creatorShareBpAt(_month: string, _userId?: string): Promise<number> {
  const settings = await getSettings();
  return percentToBp(settings.creatorSharePercent);
}

export async function payoutDay(): Promise<number> {
  return (await getSettings()).payoutDayOfMonth;
}
