import { lazy, Suspense, useEffect, useState } from "react";
import { useAppName } from "~/components/public-layout";
import { Field } from "~/ui/field";
import { Checkbox } from "./account-fields";

// The agreements' full text (about 3 KB of the sign-up's first-load JavaScript) loads after the page
// has hydrated, long before anyone opens a dialog: only a link and a checkbox need it to work. Without
// JavaScript the link opens /terms-of-service in a new tab (issue 43: first-load JS must not grow).
const CreatorAgreement = lazy(() => import("~/lib/agreements").then((m) => ({ default: m.CreatorAgreement })));
const ClipperAgreement = lazy(() => import("~/lib/agreements").then((m) => ({ default: m.ClipperAgreement })));

/** An agreement's text once the page has hydrated (the server renders a line pointing at the full page). */
export function AgreementText({ which, appName }: { which: "creator" | "clipper"; appName: string }) {
  const hydrated = useHydrated();
  const loading = <p className="text-slate-600">Loading the agreement…</p>;
  if (!hydrated) return loading;
  const Text = which === "creator" ? CreatorAgreement : ClipperAgreement;
  return (
    <Suspense fallback={loading}>
      <Text appName={appName} />
    </Suspense>
  );
}

export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function AgreementDialog({
  id,
  title,
  children,
  dialogRef,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  dialogRef: React.RefObject<HTMLDialogElement | null>;
}) {
  return (
    <dialog ref={dialogRef} aria-labelledby={`${id}-title`} className="m-auto w-[min(48rem,calc(100vw-2rem))] rounded-xl p-0 backdrop:bg-slate-900/50">
      <div className="flex max-h-[85vh] flex-col">
        <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
          <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <button
            type="button"
            onClick={() => dialogRef.current?.close()}
            className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
          >
            Close
          </button>
        </div>
        {/* Focusable so keyboard users can scroll the agreement. */}
        {/* biome-ignore lint/a11y/useSemanticElements: a focusable scroll container (axe: scrollable-region-focusable), not a page section */}
        <div tabIndex={0} role="region" aria-label={title} className="prose-legal overflow-y-auto px-5 py-4 text-sm">
          {children}
        </div>
      </div>
    </dialog>
  );
}

/** The two agreements a sign-up accepts: the checkbox's field, its error's id, the text's anchor. */
export const AGREEMENTS = {
  creator: {
    name: "acceptTerms",
    errorId: "acceptTerms-error",
    href: "/terms-of-service#creator-agreement",
    title: "Creator Agreement & Monetization Terms",
  },
  clipper: {
    name: "acceptClipperAgreement",
    errorId: "acceptClipper-error",
    href: "/terms-of-service#clipper-agreement",
    title: "Clipper Agreement",
  },
} as const;

/** "I accept the <agreement>": a required checkbox whose link opens the agreement in its dialog. */
export function AgreementCheckbox({
  agreement,
  dialogRef,
  onChange,
  ...rest
}: {
  agreement: (typeof AGREEMENTS)[keyof typeof AGREEMENTS];
  dialogRef: React.RefObject<HTMLDialogElement | null>;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error: string | undefined;
}) {
  return (
    <Checkbox id={agreement.name} name={agreement.name} errorId={agreement.errorId} onChange={(e) => onChange(e.currentTarget.checked)} {...rest}>
      I accept the{" "}
      <a
        href={agreement.href}
        target="_blank"
        rel="noreferrer"
        onClick={(e) => {
          e.preventDefault();
          dialogRef.current?.showModal();
        }}
        className="font-semibold text-brand-700 underline"
      >
        {agreement.title}
      </a>
    </Checkbox>
  );
}

/**
 * The channel details a creator's sign-up asks (YouTube channel URL, subscribers, monthly views)
 * and the Creator Agreement checkbox: the sign-up form and a Google account's finishing step
 * (docs/decisions/0324) render the same fields. The checkbox's link opens `agreementDialog`,
 * a CreatorAgreementDialog the form renders after its submit button.
 */
export function ChannelDetailsFields({
  errors,
  acceptTerms,
  onAcceptTermsChange,
  agreementDialog,
}: {
  errors: Record<string, string | undefined>;
  acceptTerms: boolean;
  onAcceptTermsChange: (checked: boolean) => void;
  agreementDialog: React.RefObject<HTMLDialogElement | null>;
}) {
  return (
    <>
      <Field
        label="YouTube channel URL"
        name="channelUrl"
        type="url"
        inputMode="url"
        placeholder="https://www.youtube.com/@yourchannel"
        required
        error={errors.channelUrl}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Subscribers" name="subscribers" type="number" min={0} step={1} inputMode="numeric" required error={errors.subscribers} />
        <Field label="Monthly views" name="monthlyViews" type="number" min={0} step={1} inputMode="numeric" required error={errors.monthlyViews} />
      </div>
      <AgreementCheckbox
        agreement={AGREEMENTS.creator}
        dialogRef={agreementDialog}
        checked={acceptTerms}
        onChange={onAcceptTermsChange}
        error={errors.acceptTerms}
      />
    </>
  );
}

/** The Creator Agreement's dialog, opened by ChannelDetailsFields' checkbox. */
export function CreatorAgreementDialog({ dialogRef }: { dialogRef: React.RefObject<HTMLDialogElement | null> }) {
  const appName = useAppName();
  return (
    <AgreementDialog id="creator-agreement" title={AGREEMENTS.creator.title} dialogRef={dialogRef}>
      <AgreementText which="creator" appName={appName} />
    </AgreementDialog>
  );
}
