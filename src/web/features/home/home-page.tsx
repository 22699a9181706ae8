// Home (spec section 2): banner, timeline, the nine suggested books in three class groups, news.
// It is in the main bundle, so it stays small: no form library, no schema library.
import { usePageTitle } from '../../lib/use-page-title';
import { HomeBanner } from './home-banner';
import { ContestTimeline } from './contest-timeline';
import { BookGroups } from './book-groups';
import { HomeNews } from './home-news';
import './home.css';

export function HomePage() {
  usePageTitle();
  return (
    <div className="home">
      <HomeBanner />
      <ContestTimeline />
      <BookGroups />
      <HomeNews />
    </div>
  );
}
