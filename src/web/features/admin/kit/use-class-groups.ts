// The class groups a book belongs to (the public catalogue's list).
import type { ClassGroup } from '../../../../shared/schemas/catalog';
import { useApiData } from '../../../lib/use-data';

export const useClassGroups = () => useApiData<ClassGroup[]>('/class-groups').data ?? [];
