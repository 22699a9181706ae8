import { useEffect } from 'react';

const SITE = 'Cuộc thi Đại sứ Văn hoá đọc';

export function usePageTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} | ${SITE}` : SITE;
  }, [title]);
}
