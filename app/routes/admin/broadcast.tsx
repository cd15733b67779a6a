import { useEffect, useRef, useState, type FormEvent } from "react";
import { useActionData, useNavigation, useRevalidator } from "react-router";
import { toast } from "~/ui/toaster";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field, FieldFrame, useDescribed } from "~/ui/field";
import { FormError } from "~/ui/form-error";
import { Select } from "~/ui/select";
import { TextArea } from "~/ui/textarea";
import { Card } from "~/ui/card";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { isActionFailure, type ActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { broadcastFiles, recentBroadcasts, sendBroadcast } from "~/modules/notifications/notifications.server";
import { broadcastSchema } from "~/modules/notifications/schema";
import {
  AUDIENCE_ROLES,
  BROADCAST_EMAILS_MAX,
  BROADCAST_IMAGE_MAX_MB,
  BROADCAST_TEXT_MAX,
  BROADCAST_TITLE_MAX,
  BROADCAST_VIDEO_MAX_MB,
} from "~/modules/notifications/messages";
import { domainAction, domainLoader } from "~/platform/http.server";
import { parseFields, readForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/broadcast";

export const meta = () => [{ title: "Broadcast | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  return { recent: await recentBroadcasts(actorOf(admin)) };
});

/** The form without JavaScript: a plain multipart POST. With JavaScript the page sends the same
 * fields to /api/notifications?intent=broadcast by XMLHttpRequest, for the upload progress.
 * A refusal comes back as the ActionFailure: field errors and the submitted values. */
export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const form = await readForm(args.request);
  const input = parseFields(form, broadcastSchema);
  const result = await sendBroadcast(actorOf(admin), input, broadcastFiles(form), args.request);
  return redirectWithToast(args.request, "/admin/broadcast", {
    type: "success",
    title: "Broadcast sent",
    description: sentText(result.recipients, result.audience),
  });
}, "The broadcast could not be sent");

function sentText(recipients: number, audience: string) {
  return `Sent to ${recipients} user${recipients === 1 ? "" : "s"} (${audience}).`;
}

type Errors = Record<string, string>;

/** Field errors of a refused post; a refusal without any (an unreadable form) shows its message on the form. */
function errorsOf(failure: ActionFailure | null): Errors {
  if (!failure) return {};
  return Object.keys(failure.errors).length > 0 ? failure.errors : { form: failure.toast.description };
}

export default function BroadcastPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const failure = isActionFailure(actionData) ? actionData : null;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const formRef = useRef<HTMLFormElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [audience, setAudience] = useState(failure?.values?.audience ?? "all");
  const [errors, setErrors] = useState<Errors>(errorsOf(failure));
  const [progress, setProgress] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => setErrors(errorsOf(failure)), [failure]);
  const values = failure?.values ?? {};
  const busy = sending || navigation.state === "submitting";

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // With JavaScript: validate with the same schema, then send by XMLHttpRequest for the
    // upload progress. Without it the browser posts the form to this route's action.
    event.preventDefault();
    const form = event.currentTarget;
    const fd = new FormData(form);
    const fields = Object.fromEntries([...fd].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    // The schema loads on the first send, not with the page (docs/decisions/0086); if it cannot
    // load, the server checks the same rules.
    void Promise.all([import("~/modules/notifications/schema"), import("~/lib/forms")])
      .then(([schema, forms]): Errors => {
        const parsed = schema.broadcastSchema.safeParse(fields);
        return parsed.success ? {} : forms.fieldErrorsOf(parsed.error);
      })
      .catch((): Errors => ({}))
      .then((next) => send(form, fd, next));
  }

  function send(form: HTMLFormElement, fd: FormData, next: Errors) {
    const image = fd.get("image");
    const video = fd.get("video");
    if (image instanceof File && image.size > BROADCAST_IMAGE_MAX_MB * 1024 * 1024) {
      next.image = `The image must be ${BROADCAST_IMAGE_MAX_MB} MB or smaller.`;
    }
    if (video instanceof File && video.size > BROADCAST_VIDEO_MAX_MB * 1024 * 1024) {
      next.video = `The video must be ${BROADCAST_VIDEO_MAX_MB} MB or smaller.`;
    }
    setErrors(next);
    if (Object.keys(next).length > 0) {
      focusFirstError(form, next);
      return;
    }
    for (const name of ["image", "video"]) {
      const f = fd.get(name);
      if (f instanceof File && f.size === 0) fd.delete(name);
    }
    setSending(true);
    setProgress(0);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/notifications?intent=broadcast");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      setSending(false);
      setProgress(null);
      const body = xhr.response as { ok?: boolean; errors?: Errors; recipients?: number; audience?: string } | null;
      if (xhr.status === 200 && body?.ok) {
        toast.success("Broadcast sent", { description: sentText(body.recipients ?? 0, body.audience ?? "") });
        form.reset();
        setAudience("all");
        void revalidator.revalidate();
      } else if (body?.errors && Object.keys(body.errors).length > 0) {
        setErrors(body.errors);
        focusFirstError(form, body.errors);
      } else {
        setErrors({
          form: xhr.status === 413 ? "The upload is too large." : "The broadcast could not be sent. Please try again.",
        });
      }
    };
    xhr.onerror = () => {
      setSending(false);
      setProgress(null);
      setErrors({ form: "The broadcast could not be sent. Check your connection and try again." });
    };
    xhr.send(fd);
  }

  return (
    <>
      <PageHeader title="Broadcast" description="Send a notification to everyone, to one kind of user, or to chosen users. It appears in their bell at once." />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card>
          <form
            ref={formRef}
            method="post"
            encType="multipart/form-data"
            onSubmit={onSubmit}
            noValidate={hydrated}
            className="space-y-5"
            aria-label="Broadcast a notification"
          >
            <FormError message={errors.form} />
            <Field label="Title" name="title" maxLength={BROADCAST_TITLE_MAX} defaultValue={values.title} error={errors.title} required />
            <TextArea label="Text" name="content" maxLength={BROADCAST_TEXT_MAX} defaultValue={values.content} error={errors.content} rows={4} required />

            <fieldset>
              <legend className="text-sm font-medium text-slate-800">Audience</legend>
              <div className="mt-2 space-y-2">
                {[
                  { value: "all", label: "Everyone" },
                  { value: "role", label: "One kind of user" },
                  { value: "users", label: "Chosen users" },
                ].map((o) => (
                  <label key={o.value} className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="radio"
                      name="audience"
                      value={o.value}
                      checked={audience === o.value}
                      onChange={() => setAudience(o.value)}
                      className="h-4 w-4 accent-brand-600"
                    />
                    {o.label}
                  </label>
                ))}
              </div>
              {errors.audience ? <p className="mt-1 text-sm text-red-700">{errors.audience}</p> : null}
            </fieldset>

            <div hidden={hydrated && audience !== "role"}>
              <Select label="Kind of user" name="role" defaultValue={values.role ?? ""} error={errors.role} options={ROLE_OPTIONS} />
            </div>
            <div hidden={hydrated && audience !== "users"}>
              <TextArea
                label="Chosen users (e-mail addresses)"
                name="emails"
                rows={3}
                defaultValue={values.emails}
                error={errors.emails}
                hint={`One per line, or separated by commas. Up to ${BROADCAST_EMAILS_MAX}.`}
                autoComplete="off"
              />
            </div>

            <div className="grid gap-4 sm:grid-cols-2">
              <FileField
                label="Image (optional)"
                name="image"
                accept="image/png,image/jpeg,image/webp,image/gif"
                hint={`PNG, JPG, WEBP or GIF, up to ${BROADCAST_IMAGE_MAX_MB} MB. Shown publicly.`}
                error={errors.image}
              />
              <FileField
                label="Video (optional)"
                name="video"
                accept="video/mp4,video/webm,video/quicktime"
                hint={`MP4, WEBM or MOV, up to ${BROADCAST_VIDEO_MAX_MB} MB (uploads to the app are capped). Played through a private link valid for 1 hour.`}
                error={errors.video}
              />
            </div>

            {progress !== null ? (
              <div>
                <label htmlFor="broadcast-progress" className="block text-sm font-medium text-slate-800">
                  Uploading… {progress}%
                </label>
                <progress id="broadcast-progress" max={100} value={progress} className="mt-1 h-2 w-full accent-brand-600">
                  {progress}%
                </progress>
              </div>
            ) : null}

            <button
              type="submit"
              disabled={busy}
              className="inline-flex items-center justify-center rounded-md bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {busy ? "Sending…" : "Send broadcast"}
            </button>
          </form>
        </Card>

        <Card>
          <h2 className="text-base font-semibold text-slate-900">Recent broadcasts</h2>
          {loaderData.recent.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No broadcasts yet.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100">
              {loaderData.recent.map((b) => (
                <li key={b.id} className="py-2 text-sm">
                  <p className="font-medium break-words text-slate-900">{b.title}</p>
                  <p className="text-slate-600">
                    {audienceText(b.audience)} · {b.recipients} sent · {b.read} read
                    {b.hasImage ? " · image" : ""}
                    {b.hasVideo ? " · video" : ""}
                  </p>
                  <p className="text-xs text-slate-500">
                    <LocalTime iso={b.createdAt} withTime />
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}

function audienceText(tag: string): string {
  if (tag === "all") return "Everyone";
  if (tag.startsWith("role:")) return AUDIENCE_ROLES.find((r) => r.value === tag.slice(5))?.label ?? tag;
  return "Chosen users";
}

function focusFirstError(form: HTMLFormElement, errors: Errors) {
  const first = ["title", "content", "audience", "role", "emails", "image", "video"].find((k) => errors[k]);
  const el = first ? (form.elements.namedItem(first) as HTMLElement | RadioNodeList | null) : null;
  if (el && "focus" in el) el.focus();
}

const ROLE_OPTIONS = [{ value: "", label: "Choose…" }, ...AUDIENCE_ROLES];

/** A file input in the form's frame (label, hint, error), styled as a button-like file picker. */
function FileField({ label, error, hint, ...input }: { label: string; error?: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const d = useDescribed(error, hint);
  return (
    <FieldFrame d={d} label={label}>
      <input
        id={d.id}
        type="file"
        aria-invalid={error ? true : undefined}
        aria-describedby={d.describedBy}
        className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-900 file:px-3 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        {...input}
      />
    </FieldFrame>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
