import { examMessages } from '../../shared/messages';
import { Link } from '../lib/router';

/** A parent without contestants: the join and report screens send them to enrol one. */
export function NoContestantsWarning() {
  return (
    <div className="alert alert-warning">
      <p>{examMessages.noContestants}</p>
      <Link href="/tai-khoan">{examMessages.registerContestant}</Link>
    </div>
  );
}
