// Files dropped on a collection become the API's upload entries: text files as text, PDFs as
// base64. Problems the server names by `documents.N` are put back on their file names.

export interface UploadEntry {
  name: string;
  content?: string;
  content_base64?: string;
}

export async function uploadEntryOf(file: File): Promise<UploadEntry> {
  if (file.name.toLowerCase().endsWith(".pdf")) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { name: file.name, content_base64: btoa(binary) };
  }
  return { name: file.name, content: await file.text() };
}

/** `documents.2.line 3` → `notes.jsonl, line 3`, using the names of the files sent. */
export function problemOnFile(path: string, names: readonly string[]): string {
  const match = /^documents\.(\d+)(?:\.(.*))?$/.exec(path);
  if (!match) return path;
  const name = names[Number(match[1])] ?? path;
  return match[2] ? `${name}, ${match[2]}` : name;
}
