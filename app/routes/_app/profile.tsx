import { useEffect } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/components/forms";
import { Card, PageHeader } from "~/components/page";
import { fieldErrors, profileSchema } from "~/modules/accounts/schema";
import { requireUser } from "~/modules/accounts/guards.server";
import { AVATAR_MAX_BYTES, getProfile, updateAvatar, updateProfileName } from "~/modules/accounts/profile.server";
import type { Route } from "./+types/profile";

export const meta = () => [{ title: "Profile | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const profile = await getProfile(user.id);
  return { profile, avatarMaxMb: AVATAR_MAX_BYTES / 1024 / 1024 };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const form = await args.request.formData();
  const intent = form.get("intent");
  if (intent === "avatar") {
    const file = form.get("avatar");
    if (!(file instanceof File) || file.size === 0) {
      return data({ ok: false, errors: { avatar: "Choose an image to upload." }, toast: { title: "Upload failed", description: "Choose an image to upload." } }, { status: 400 });
    }
    const result = await updateAvatar(args.request, user.id, file);
    if (!result.ok) return data({ ok: false, errors: { avatar: result.error }, toast: { title: "Upload failed", description: result.error } }, { status: 400 });
    return { ok: true, errors: {}, toast: { title: "Avatar updated", description: "Your new picture is saved." } };
  }
  const parsed = profileSchema.safeParse({ fullName: form.get("fullName") ?? "" });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const message = errors.fullName ?? "Please check the form";
    return data(
      { ok: false, errors, toast: { title: message.endsWith("characters or less.") ? "Input too long" : "Please check the form", description: message } },
      { status: 400 },
    );
  }
  await updateProfileName(args.request, user.id, parsed.data.fullName);
  return { ok: true, errors: {}, toast: { title: "Profile updated", description: "Your name is saved." } };
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors: Record<string, string> = actionData?.errors ?? {};
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
            {profile.avatar_url ? (
              <img src={profile.avatar_url} alt="Your avatar" width={80} height={80} className="h-20 w-20 rounded-full object-cover" />
            ) : (
              <span className="inline-flex h-20 w-20 items-center justify-center rounded-full bg-slate-200 text-2xl font-bold text-slate-600" aria-label="No avatar yet">
                {(profile.full_name ?? profile.email).slice(0, 1).toUpperCase()}
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
              <button type="submit" disabled={busy} className="self-start rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-50">
                Upload picture
              </button>
            </Form>
          </div>
        </Card>
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Details</h2>
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="name" />
            <Field label="Full name" name="fullName" defaultValue={profile.full_name ?? ""} maxLength={100} required error={errors.fullName} />
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-500">Email</dt>
                <dd className="font-medium break-all text-slate-900">{profile.email}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Creator ID (your referral code)</dt>
                <dd className="font-mono font-medium text-slate-900">{profile.creator_id}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Account status</dt>
                <dd className="font-medium text-slate-900 capitalize">{profile.approval_status}</dd>
              </div>
              <div>
                <dt className="text-slate-500">Member since</dt>
                <dd className="font-medium text-slate-900">{new Date(profile.created_at).toLocaleDateString("en-GB", { timeZone: "UTC" })}</dd>
              </div>
            </dl>
            <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
              Save profile
            </button>
          </Form>
        </Card>
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
