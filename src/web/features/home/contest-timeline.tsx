// The timeline image of spec section 2: a wide picture on desktops, a vertical one on phones
// (the wide one would shrink its dates to an unreadable size).
const TIMELINE_ALT =
  'Lịch trình cuộc thi: đọc sách và phát động từ 03/03/2025 đến 01/04/2025; thi trực tuyến từ 02/04/2025 đến 13/04/2025; ' +
  'công bố kết quả ngày 15/04/2025; trao giải từ 16/04/2025 đến 21/04/2025.';

export function ContestTimeline() {
  return (
    <section className="container home-section" aria-labelledby="timeline-title">
      <h2 id="timeline-title" className="section-title">
        Lịch trình cuộc thi
      </h2>
      <picture className="home-timeline">
        <source media="(min-width: 700px)" srcSet="/images/timeline.svg" width="1100" height="300" />
        <img src="/images/timeline-vertical.svg" width="360" height="520" alt={TIMELINE_ALT} loading="lazy" decoding="async" />
      </picture>
    </section>
  );
}
