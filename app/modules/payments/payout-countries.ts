// Client-safe: the /payments set-up form lists them, the server checks against them.
//
// Which countries the platform can pay, from the platform's own country (STRIPE_PLATFORM_COUNTRY,
// docs/decisions/0306). Stripe's Connect cross-border payouts
// (https://docs.stripe.com/connect/cross-border-payouts): "Platforms based in the US, UK, EEA, Canada,
// or Switzerland can transfer funds to connected accounts in any of those regions … Stripe doesn't
// support self-serve cross-border payouts to countries outside the listed regions." A platform in one
// of those regions therefore offers all of them; a platform anywhere else pays only people in its own
// country. A person outside the platform's country is onboarded under the recipient service agreement
// (https://docs.stripe.com/connect/service-agreement-types: "Cross-border payouts only work with
// accounts under the recipient service agreement").

export type PayoutCountry = { code: string; name: string };

/**
 * The EEA countries in which Stripe offers Express accounts
 * (https://docs.stripe.com/connect/express-accounts, "Platform in a supported country").
 */
const EEA: PayoutCountry[] = [
  { code: "AT", name: "Austria" },
  { code: "BE", name: "Belgium" },
  { code: "BG", name: "Bulgaria" },
  { code: "HR", name: "Croatia" },
  { code: "CY", name: "Cyprus" },
  { code: "CZ", name: "Czech Republic" },
  { code: "DK", name: "Denmark" },
  { code: "EE", name: "Estonia" },
  { code: "FI", name: "Finland" },
  { code: "FR", name: "France" },
  { code: "DE", name: "Germany" },
  { code: "GR", name: "Greece" },
  { code: "HU", name: "Hungary" },
  { code: "IE", name: "Ireland" },
  { code: "IT", name: "Italy" },
  { code: "LV", name: "Latvia" },
  { code: "LT", name: "Lithuania" },
  { code: "LU", name: "Luxembourg" },
  { code: "MT", name: "Malta" },
  { code: "NL", name: "Netherlands" },
  { code: "NO", name: "Norway" },
  { code: "PL", name: "Poland" },
  { code: "PT", name: "Portugal" },
  { code: "RO", name: "Romania" },
  { code: "SK", name: "Slovakia" },
  { code: "SI", name: "Slovenia" },
  { code: "ES", name: "Spain" },
  { code: "SE", name: "Sweden" },
];

/** The cross-border region: a platform in any of these pays people in any of these. */
const CROSS_BORDER_REGION: PayoutCountry[] = [
  { code: "US", name: "United States" },
  { code: "GB", name: "United Kingdom" },
  { code: "CA", name: "Canada" },
  { code: "CH", name: "Switzerland" },
  ...EEA,
];

/** Stripe's other platform countries for Express (same page): each pays only people in its own country. */
const DOMESTIC_ONLY: PayoutCountry[] = [
  { code: "AU", name: "Australia" },
  { code: "BR", name: "Brazil" },
  { code: "HK", name: "Hong Kong" },
  { code: "JP", name: "Japan" },
  { code: "MX", name: "Mexico" },
  { code: "NZ", name: "New Zealand" },
  { code: "SG", name: "Singapore" },
];

/** Every country a platform may be in (the setting is checked against it). */
export const PLATFORM_COUNTRIES: readonly PayoutCountry[] = [...CROSS_BORDER_REGION, ...DOMESTIC_ONLY];

export const DEFAULT_PLATFORM_COUNTRY = "US";

const inRegion = (code: string) => CROSS_BORDER_REGION.some((c) => c.code === code);

/**
 * The countries a payout account can be opened in for a platform in `platformCountry` (Stripe needs
 * the country when the account is created; it cannot change): the platform's own first, then the
 * others of its region by name. An unknown platform country offers nothing.
 */
export function payoutCountriesFor(platformCountry: string): PayoutCountry[] {
  const own = PLATFORM_COUNTRIES.find((c) => c.code === platformCountry);
  if (!own) return [];
  if (!inRegion(own.code)) return [own];
  return [own, ...CROSS_BORDER_REGION.filter((c) => c.code !== own.code).sort((a, b) => a.name.localeCompare(b.name))];
}

/**
 * The service agreement an account in `country` is opened under: "recipient" when it is not the
 * platform's country (a cross-border payout, which Stripe allows only to recipient accounts), else
 * Stripe's default (full), which is not sent.
 */
export function serviceAgreementFor(platformCountry: string, country: string): "recipient" | null {
  return country === platformCountry ? null : "recipient";
}
