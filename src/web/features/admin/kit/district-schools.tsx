// A district, then a school within it: the public lists the back office's filters and forms read
// (/districts, and /schools of the chosen district, none before one is chosen) and their options.
import { useApiData } from '../../../lib/use-data';

export interface NamedItem {
  id: number;
  name: string;
}

export function useDistrictSchools(districtId: string) {
  const districts = useApiData<NamedItem[]>('/districts');
  const schools = useApiData<NamedItem[]>(districtId ? `/schools?district_id=${encodeURIComponent(districtId)}` : null);
  return { districts, schools };
}

/** One <option> per item, its id as the value. */
export function NamedOptions({ items }: { items: readonly NamedItem[] | undefined }) {
  return items?.map((item) => (
    <option key={item.id} value={item.id}>
      {item.name}
    </option>
  ));
}
