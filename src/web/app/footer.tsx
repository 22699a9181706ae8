// The site footer: organiser, hotline, contact e-mail, social links, sponsors and the business
// licence line, all from GET /api/site (a load error is only logged, as spec section 8 says).
import { Mail, MapPin, Phone } from '../components/ui/shell-icons';
import { yearOf } from '../../shared/format';
import { Link } from '../lib/router';
import { useSite, type SiteInfo } from '../lib/site';
import './footer.css';

const FacebookIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
    <path fill="currentColor" d="M13.5 21v-7.5H16l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.5V4.4c-.3 0-1.2-.1-2.2-.1-2.2 0-3.7 1.3-3.7 3.8v2.4H8v3h2.6V21h2.9z" />
  </svg>
);
const YouTubeIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
    <rect x="2" y="5" width="20" height="14" rx="4" fill="currentColor" />
    <path d="M10 8.8v6.4l5.4-3.2z" fill="var(--color-primary-dark)" />
  </svg>
);
const ZaloIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
    <path fill="currentColor" d="M12 3C6.5 3 2 6.7 2 11.3c0 2.6 1.4 4.9 3.7 6.4L5 21l3.9-2c1 .3 2 .4 3.1.4 5.5 0 10-3.7 10-8.3S17.5 3 12 3z" />
    <path d="M8.4 8.6h7l-7 5.6h7" fill="none" stroke="var(--color-primary-dark)" strokeWidth="1.9" strokeLinejoin="round" strokeLinecap="round" />
  </svg>
);

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

function FooterContent({ site }: { site: SiteInfo }) {
  const social = [
    { href: site.social.facebook, label: 'Facebook của cuộc thi', icon: <FacebookIcon /> },
    { href: site.social.youtube, label: 'Kênh YouTube của cuộc thi', icon: <YouTubeIcon /> },
    { href: site.social.zalo, label: 'Zalo của cuộc thi', icon: <ZaloIcon /> },
  ];
  return (
    <>
      <div className="container footer-grid">
        <section aria-labelledby="footer-organiser">
          <h2 id="footer-organiser" className="footer-heading">
            Đơn vị tổ chức
          </h2>
          <p className="footer-organiser">{site.organiserName}</p>
          <p className="footer-line">
            <MapPin aria-hidden="true" size={18} />
            <span>{site.organiserAddress}</span>
          </p>
        </section>

        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-heading">
            Liên hệ
          </h2>
          <p className="footer-line footer-contact-line">
            <Phone aria-hidden="true" size={18} />
            <span>
              Hotline: <a href={telHref(site.hotline)}>{site.hotline}</a>
            </span>
          </p>
          <p className="footer-line footer-contact-line">
            <Mail aria-hidden="true" size={18} />
            <span>
              E-mail: <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
            </span>
          </p>
          <ul className="footer-social">
            {social.map((link) => (
              <li key={link.label}>
                <a href={link.href} target="_blank" rel="noopener noreferrer" aria-label={link.label} title={link.label}>
                  {link.icon}
                </a>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="footer-sponsors">
          <h2 id="footer-sponsors" className="footer-heading">
            Đơn vị đồng hành
          </h2>
          <ul className="footer-sponsors">
            {site.sponsors.map((sponsor) => (
              <li key={sponsor.url}>
                <a href={sponsor.url} target="_blank" rel="noopener noreferrer">
                  <img src={sponsor.logo} alt={sponsor.name} width="160" height="64" loading="lazy" decoding="async" />
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <div className="footer-bottom">
        <div className="container">
          <p>{site.businessLicence}</p>
          <p>
            <Link href="/chinh-sach-bao-mat">Chính sách bảo mật</Link>
          </p>
          <p>
            © {site.contest ? yearOf(site.contest.exam_starts_at) : new Date().getFullYear()} {site.organiserName}. {site.siteName}.
          </p>
        </div>
      </div>
    </>
  );
}

export function Footer() {
  const site = useSite();
  return <footer className="site-footer">{site && <FooterContent site={site} />}</footer>;
}
