import { toast } from './toast';

/** Puts `text` on the clipboard; resolves false when the browser refuses (no permission, not a secure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copies `text` and says in a toast whether it worked (a Copy button's whole job). */
export async function copyWithToast(text: string, texts: { copied: string; failed: string }): Promise<void> {
  if (await copyText(text)) toast.success(texts.copied);
  else toast.error(texts.failed);
}
