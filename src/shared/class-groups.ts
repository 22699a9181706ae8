// How a class group is named on screen, in one place: the home page's book groups and the
// profile's 'Nhóm lớp' select. `grades` is as stored: '1-2', '3-4' or '5'.

/** 'Lớp 1 - 2', 'Lớp 5'. */
export const gradesLabel = (grades: string) => `Lớp ${grades.split('-').join(' - ')}`;

/** 'Nhóm 1 (Lớp 1 - 2)'. */
export const classGroupLabel = (group: { name: string; grades: string }) => `${group.name} (${gradesLabel(group.grades)})`;
