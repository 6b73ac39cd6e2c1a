/** "Page user data": what islands learn about the signed-in reader. */
export interface PageUserData {
  id: number;
  profile: { keys: number; free_keys: number };
  is_staff: boolean;
}

export function pageUserData(user: { id: number; keys: number; freeKeys: number; isStaff: boolean } | null): PageUserData | null {
  return user ? { id: user.id, profile: { keys: user.keys, free_keys: user.freeKeys }, is_staff: user.isStaff } : null;
}

/** Reads the data Base.astro embeds (`<script type="application/json" id="page-user-data">`). */
export function readPageUserData(doc: Document = document): PageUserData | null {
  const el = doc.getElementById('page-user-data');
  try {
    return el?.textContent ? (JSON.parse(el.textContent) as PageUserData | null) : null;
  } catch {
    return null;
  }
}
