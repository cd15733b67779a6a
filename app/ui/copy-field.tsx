import { useEffect, useState } from "react";
import { buttonClass } from "~/ui/button";
import { inputClass } from "~/ui/field";
import { toast } from "~/ui/toaster";

/**
 * A link in a read-only field (selectable without JavaScript) with a copy button once hydrated:
 * the referral link on /referrals, the signup links on /agency-dashboard. When the clipboard
 * refuses, the field's text is selected and a toast says to copy it by hand.
 */
export function CopyField({
  label,
  value,
  id = `copy-${value.replace(/[^a-z0-9]/gi, "").slice(-24)}`,
  primary = false,
  copied: copiedToast = { title: "Link copied", description: value },
}: {
  label: string;
  value: string;
  id?: string;
  /** The copy button as the page's main action. */
  primary?: boolean;
  /** The toast once copied. */
  copied?: { title: string; description: string };
}) {
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setHydrated(true), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(copiedToast.title, { description: copiedToast.description });
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      toast.error("Could not copy", { description: "Select the link and copy it by hand." });
    }
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} className={`${inputClass} mt-0 font-mono text-xs`} />
        {hydrated ? (
          <button
            type="button"
            onClick={copy}
            className={`${primary ? buttonClass.primary : buttonClass.secondary} shrink-0`}
            aria-label={`Copy ${label.toLowerCase()}`}
          >
            {copied ? "Copied!" : "Copy"}
          </button>
        ) : null}
      </div>
    </div>
  );
}
