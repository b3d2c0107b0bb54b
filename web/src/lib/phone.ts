// Phone numbers as the server reads them (docs/ARCHITECTURE.md, "Rules that hold everywhere"): keep digits and a leading "+"; 10 or
// 11 digits typed without "+" are a Brazilian number with area code and get "+55"; otherwise a
// "+" is added in front.

export function normalizePhone(input: string): string {
  const trimmed = input.trim();
  const digits = trimmed.replace(/\D/g, "");
  if (digits === "") return "";
  if (trimmed.startsWith("+")) return `+${digits}`;
  if (trimmed.startsWith("00")) return `+${digits.slice(2)}`;
  if (digits.length === 10 || digits.length === 11) return `+55${digits}`;
  return `+${digits}`;
}

/**
 * A number the way Brazilians write it: "+5531987654321" → "(31) 98765-4321". A mobile that WhatsApp
 * delivered without its ninth digit ("+553187654321", an older account) is shown with it, as its
 * owner types it (the server's `PhoneNumber::identity`); landlines as "(11) 3456-7890"; other
 * countries as they are.
 */
export function formatPhone(e164: string): string {
  const digits = e164.replace(/\D/g, "");
  if (e164.startsWith("+") && !e164.startsWith("+55")) return e164;
  const national = (digits.length === 12 || digits.length === 13) && digits.startsWith("55") ? digits.slice(2) : digits;
  const withNine = /^([1-9]{2})([6-9]\d{7})$/.exec(national);
  if (withNine) return formatPhone(`+55${withNine[1]}9${withNine[2]}`);
  const mobile = /^(\d{2})(9\d{4})(\d{4})$/.exec(national);
  if (mobile) return `(${mobile[1]}) ${mobile[2]}-${mobile[3]}`;
  const landline = /^(\d{2})([2-5]\d{3})(\d{4})$/.exec(national);
  return landline ? `(${landline[1]}) ${landline[2]}-${landline[3]}` : e164;
}

/**
 * How a person is shown: their number as Brazilians write it and, when they adopted a WhatsApp
 * username, the username beside it — or alone, for someone WhatsApp shows without a number.
 */
export function formatHandle(phoneNumber: string, username = ""): string {
  if (!phoneNumber) return username;
  return username ? `${formatPhone(phoneNumber)} · ${username}` : formatPhone(phoneNumber);
}
