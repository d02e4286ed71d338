import type { ComponentProps, ReactNode } from 'react';
import { copyWithToast } from '../../lib/clipboard';
import { DISTRIBUTION_TEXTS, linkPreview } from '../../lib/distribution';
import { cx } from '../ui/cx';
import { CopyIcon, ExternalLinkIcon, LinkIcon } from '../ui/icons';

const iconButtonClassName =
  'inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-white hover:text-slate-900 ' +
  'focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed';

/** A small button that shows only its icon; `label` names it and is its tooltip. */
export function IconButton({ label, children, className, ...props }: ComponentProps<'button'> & { label: string }) {
  return (
    <button type="button" aria-label={label} title={label} className={cx(iconButtonClassName, className)} {...props}>
      {children}
    </button>
  );
}

/** Puts a distribution link on the clipboard; a toast says it did, or that it failed. */
export function copyLink(link: string): Promise<void> {
  return copyWithToast(link, { copied: DISTRIBUTION_TEXTS.linkCopied, failed: DISTRIBUTION_TEXTS.copyFailed });
}

type ControlProps<E extends 'button' | 'a'> = Omit<ComponentProps<E>, 'children' | 'className' | 'href' | 'onClick'> & {
  link: string;
};

export function CopyLinkButton({ link, ...props }: ControlProps<'button'>) {
  return (
    <IconButton label="Copy link" onClick={() => void copyLink(link)} {...props}>
      <CopyIcon className="h-4 w-4" />
    </IconButton>
  );
}

/** Opens the link in a new tab, as the recipient sees it. */
export function OpenLinkButton({ link, ...props }: ControlProps<'a'>) {
  return (
    <a
      href={link}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Open link (new tab)"
      title="Open link"
      className={iconButtonClassName}
      {...props}
    >
      <ExternalLinkIcon className="h-4 w-4" />
    </a>
  );
}

/** A link on one line: its icon and its first 30 characters (all of it in the tooltip), then `children`. */
export function LinkLine({ link, className, children }: { link: string; className: string; children?: ReactNode }) {
  return (
    <div className={cx('flex min-w-0 items-center', className)}>
      <LinkIcon className="h-4 w-4 shrink-0 text-slate-500" />
      <span
        className="min-w-0 flex-1 truncate font-mono text-xs text-slate-700"
        title={link}
        data-testid="link-preview"
      >
        {linkPreview(link)}
      </span>
      {children}
    </div>
  );
}
