// Saves bytes the API returned as a file the browser downloads.

export function saveFile(content: Uint8Array, fileName: string, contentType: string): void {
  const blob = new Blob([content.slice().buffer], { type: contentType });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
