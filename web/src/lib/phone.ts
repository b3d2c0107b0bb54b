// Phone numbers as the server reads them (ARCHITECTURE §4): keep digits and a leading "+"; 10 or
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

/** "+5511987654321" → "+55 (11) 98765-4321" for Brazilian mobiles; other numbers as they are. */
export function formatPhone(e164: string): string {
  const match = /^\+55(\d{2})(\d{4,5})(\d{4})$/.exec(e164);
  return match ? `+55 (${match[1]}) ${match[2]}-${match[3]}` : e164;
}

/** The admin table's form (spec §5): a Brazilian 2+5+4 number as "(XX) XXXXX-XXXX"; others as they are. */
export function formatAdminPhone(e164: string): string {
  if (e164.startsWith("+") && !e164.startsWith("+55")) return e164;
  const digits = e164.replace(/\D/g, "");
  const national = digits.length === 13 && digits.startsWith("55") ? digits.slice(2) : digits;
  const match = /^(\d{2})(\d{5})(\d{4})$/.exec(national);
  return match ? `(${match[1]}) ${match[2]}-${match[3]}` : e164;
}
