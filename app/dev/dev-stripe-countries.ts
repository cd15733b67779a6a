// The countries of the Stripe stand-in (app/dev/dev-stripe.server.ts): which accounts Stripe opens
// for a platform, each country's currency, and the bank fields of its hosted onboarding page.

/** The EEA countries whose bank accounts are given as an IBAN. */
const IBAN_EEA = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
];

/** Stripe's cross-border region: US, UK, EEA, Canada, Switzerland (https://docs.stripe.com/connect/cross-border-payouts). */
const CROSS_BORDER = new Set([...IBAN_EEA, "US", "GB", "CA", "CH", "IS", "LI"]);

/** Whether Stripe lets a platform in `platform` pay an account in `country` (self-serve). */
export function payable(platform: string, country: string): boolean {
  return country === platform || (CROSS_BORDER.has(platform) && CROSS_BORDER.has(country));
}

/** Each country's currency (an account's default_currency; https://docs.stripe.com/payouts#supported-accounts-and-settlement-currencies). */
export const CURRENCY: Record<string, string> = {
  US: "usd",
  GB: "gbp",
  CA: "cad",
  CH: "chf",
  AU: "aud",
  NZ: "nzd",
  JP: "jpy",
  SG: "sgd",
  HK: "hkd",
  MX: "mxn",
  BR: "brl",
  BG: "bgn",
  CZ: "czk",
  DK: "dkk",
  HU: "huf",
  NO: "nok",
  PL: "pln",
  RO: "ron",
  SE: "sek",
};

export type BankField = { name: string; label: string; value: string };

/** Where a bank account is an IBAN: the EEA and Switzerland. */
const IBAN_COUNTRIES = new Set([...IBAN_EEA, "CH"]);

/**
 * The bank fields Stripe's hosted onboarding asks for in the account's country, with Stripe's test
 * values where it publishes them (https://docs.stripe.com/connect/testing#account-numbers;
 * https://docs.stripe.com/payouts#bank-accounts): a routing number only in the United States.
 */
export function bankFieldsFor(country: string): BankField[] {
  const account = (value: string): BankField => ({ name: "bank", label: "Account number (test)", value });
  if (IBAN_COUNTRIES.has(country)) return [{ name: "iban", label: "IBAN (test)", value: country === "DE" ? "DE89370400440532013000" : "" }];
  switch (country) {
    case "US":
      return [{ name: "routing", label: "Routing number (test)", value: "110000000" }, account("000123456789")];
    case "GB":
      return [{ name: "sort_code", label: "Sort code (test)", value: "108800" }, account("00012345")];
    case "CA":
      return [
        { name: "transit", label: "Transit number (test)", value: "11000" },
        { name: "institution", label: "Institution number (test)", value: "000" },
        account("000123456789"),
      ];
    case "AU":
      return [{ name: "bsb", label: "BSB (test)", value: "110000" }, account("000123456")];
    case "MX":
      return [{ name: "clabe", label: "CLABE (test)", value: "000000001234567897" }];
    case "JP":
    case "SG":
    case "HK":
    case "BR":
      return [{ name: "bank_code", label: "Bank code (test)", value: "" }, { name: "branch_code", label: "Branch code (test)", value: "" }, account("")];
    default:
      return [account("")];
  }
}
