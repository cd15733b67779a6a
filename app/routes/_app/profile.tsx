import { useEffect } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "~/ui/toaster";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/ui/field";
import { Card } from "~/ui/card";
import { PageHeader } from "~/ui/page-header";
import { isActionFailure } from "~/lib/errors";
import { AVATAR_MAX_BYTES, getProfile, parseAccountForm, updateAvatar, updateProfileName } from "~/modules/accounts/accounts.server";
import { requireUser } from "~/modules/accounts/guards.server";
import { profileFieldTitle, profileFormSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import { LocalTime } from "~/ui/local-time";
import type { Route } from "./+types/profile";

export const meta = () => [{ title: "Profile | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const profile = await getProfile(user);
  return { profile, avatarMaxMb: AVATAR_MAX_BYTES / 1024 / 1024 };
}

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireUser(args);
  const input = await parseAccountForm(args.request, profileFormSchema, profileFieldTitle);
  if (input.intent === "avatar") {
    await updateAvatar(args.request, user, input.avatar);
    return { ok: true as const, toast: { title: "Avatar updated", description: "Your new picture is saved." } };
  }
  await updateProfileName(args.request, user, input.fullName);
  return { ok: true as const, toast: { title: "Profile updated", description: "Your name is saved." } };
});

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors: Record<string, string> = isActionFailure(actionData) ? actionData.errors : {};
  useEffect(() => {
    if (!actionData) return;
    (actionData.ok ? toast.success : toast.error)(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);
  if (!profile) return null;
  return (
    <div className="max-w-3xl">
      <PageHeader title="Profile" description="How you appear in Shortbeat." />
      <div className="grid gap-6">
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Picture</h2>
          <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-center">
            {profile.avatarUrl ? (
              <img src={profile.avatarUrl} alt="Your avatar" width={80} height={80} className="h-20 w-20 rounded-full object-cover" />
            ) : (
              <span
                className="inline-flex h-20 w-20 items-center justify-center rounded-full bg-slate-200 text-2xl font-bold text-slate-600"
                role="img"
                aria-label="No avatar yet"
              >
                {(profile.fullName ?? profile.email).slice(0, 1).toUpperCase()}
              </span>
            )}
            <Form method="post" encType="multipart/form-data" className="flex flex-1 flex-col gap-2">
              <input type="hidden" name="intent" value="avatar" />
              <Field
                label="Upload a new picture"
                name="avatar"
                type="file"
                accept="image/png,image/jpeg,image/webp"
                error={errors.avatar}
                hint={`PNG, JPEG or WebP, up to ${loaderData.avatarMaxMb} MB.`}
              />
              <button
                type="submit"
                disabled={busy}
                className="self-start rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-50"
              >
                Upload picture
              </button>
            </Form>
          </div>
        </Card>
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Details</h2>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="name" />
            <Field label="Full name" name="fullName" defaultValue={profile.fullName ?? ""} maxLength={100} required error={errors.fullName} />
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-500">Email</dt>
                <dd className="font-medium break-all text-slate-900">{profile.email}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Creator ID (your referral code)</dt>
                <dd className="font-mono font-medium text-slate-900">{profile.creatorId}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Account status</dt>
                <dd className="font-medium text-slate-900 capitalize">{profile.approvalStatus}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Member since</dt>
                <dd className="font-medium text-slate-900">
                  <LocalTime iso={profile.createdAt} />
                </dd>
              </div>
            </dl>
            <button
              type="submit"
              disabled={busy}
              className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
            >
              Save profile
            </button>
          </Form>
        </Card>
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
