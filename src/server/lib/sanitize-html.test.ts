import { describe, expect, it } from 'vitest';
import { sanitizeNewsHtml } from './sanitize-html';

describe('news body sanitiser', () => {
  it('keeps article markup', () => {
    const html = '<h2>Tiêu đề</h2><p>Đoạn <strong>đậm</strong> và <a href="/the-le">thể lệ</a>.</p><ul><li>Một</li></ul>';
    expect(sanitizeNewsHtml(html)).toBe(
      '<h2>Tiêu đề</h2><p>Đoạn <strong>đậm</strong> và <a href="/the-le" rel="noopener noreferrer">thể lệ</a>.</p><ul><li>Một</li></ul>',
    );
  });

  it('removes scripts, event handlers, styles and javascript: links', () => {
    const html =
      '<p onclick="steal()" style="color:red">Chào</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><iframe src="https://evil"></iframe>';
    const clean = sanitizeNewsHtml(html);
    expect(clean).not.toMatch(/script|onclick|style=|javascript:|iframe/);
    expect(clean).toContain('<p>Chào</p>');
  });

  it('allows only images of our own site', () => {
    expect(sanitizeNewsHtml('<img src="/images/news/a.svg" alt="Ảnh">')).toBe('<img src="/images/news/a.svg" alt="Ảnh" loading="lazy" />');
    expect(sanitizeNewsHtml('<img src="https://tracker.example/pixel.gif">')).not.toContain('tracker');
  });
});
