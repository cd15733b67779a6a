import { Form, useNavigation } from "react-router";
import { buttonClass } from "~/ui/button";
import { SOCIAL_LABELS, type SocialPlatform } from "../messages";

// The "TikTok and Instagram accounts" panel of /channels (decisions 0299, 0300): link through the
// platform's own login (a document POST answered by a redirect there), or unlink (tokens deleted).

const PLATFORMS: SocialPlatform[] = ["tiktok", "instagram"];

export function SocialAccountsPanel({ accounts }: { accounts: { platform: SocialPlatform; username: string | null }[] }) {
  const navigation = useNavigation();
  const busy = (intent: string, platform: SocialPlatform) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData?.get("platform") === platform;
  return (
    <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
      {PLATFORMS.map((p) => {
        const linked = accounts.find((a) => a.platform === p);
        const label = SOCIAL_LABELS[p];
        return (
          <li key={p} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4">
            <div className="min-w-0">
              <p className="font-medium text-slate-900">{label}</p>
              <p className="break-words text-sm text-slate-600">
                {linked ? `Linked: ${linked.username ?? "your account"}` : "Not linked: your videos wait for an admin's check."}
              </p>
            </div>
            <Form method="post" action="/channels" reloadDocument={!linked}>
              <input type="hidden" name="intent" value={linked ? "unlink-social" : "link-social"} />
              <input type="hidden" name="platform" value={p} />
              <button
                type="submit"
                disabled={busy(linked ? "unlink-social" : "link-social", p)}
                className={`${linked ? buttonClass.dangerOutline : buttonClass.primary} whitespace-nowrap`}
              >
                {linked ? `Unlink ${label}` : `Link ${label}`}
              </button>
            </Form>
          </li>
        );
      })}
    </ul>
  );
}
