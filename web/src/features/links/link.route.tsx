import { useParams } from 'react-router-dom';
import { LinkPage } from './link.page';

/**
 * The link page as the dashboard's router shows it (`pages.link`), for an address opened inside the app; opened
 * from outside, the server answers it with the page's own entry (link.html), which has no router.
 */
export function LinkRoute() {
  const { code = '' } = useParams();
  return <LinkPage code={code} />;
}
