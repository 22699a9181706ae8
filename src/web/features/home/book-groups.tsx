// The suggested books in their class groups (GET /api/books). A cover opens a modal with the
// large image. Load errors are only logged (spec section 8).
import { useState } from 'react';
import { gradesLabel } from '../../../shared/class-groups';
import type { Book } from '../../../shared/schemas/catalog';
import { useBookGroups } from '../../components/use-book-groups';
import { Modal } from '../../components/ui/modal';
import { Button } from '../../components/ui/button';


function BookModal({ book, onClose }: { book: Book; onClose: () => void }) {
  return (
    <Modal
      title={book.name}
      onClose={onClose}
      actions={
        <Button variant="outline" onClick={onClose}>
          Đóng
        </Button>
      }
    >
      <figure className="book-modal-figure">
        <img src={book.image} width="600" height="800" alt={`Bìa sách ${book.name} (ảnh lớn)`} decoding="async" />
        {book.author && <figcaption>Tác giả: {book.author}</figcaption>}
      </figure>
    </Modal>
  );
}

function BookCard({ book, onOpen }: { book: Book; onOpen: () => void }) {
  return (
    <li className="book-card">
      <button type="button" className="book-cover-button" onClick={onOpen} aria-label={`Xem bìa sách ${book.name}`}>
        <img src={book.image} width="150" height="200" alt={`Bìa sách ${book.name}`} loading="lazy" decoding="async" />
      </button>
      <h4 className="book-title">{book.name}</h4>
    </li>
  );
}

export function BookGroups() {
  const groups = useBookGroups();
  const [opened, setOpened] = useState<Book | null>(null);

  return (
    <section className="home-section home-books" aria-labelledby="books-title">
      <div className="container">
        <h2 id="books-title" className="section-title">
          Sách gợi ý cho cuộc thi
        </h2>
        <p className="section-lead">Mỗi thí sinh chọn 1 trong 3 cuốn sách của nhóm lớp mình để đọc và làm bài thi. Chạm vào bìa sách để xem ảnh lớn.</p>
        {groups ? (
          <div className="book-groups">
            {groups.map((group) => (
              <section key={group.id} className="book-group" aria-labelledby={`book-group-${group.id}`}>
                <h3 id={`book-group-${group.id}`} className="book-group-title">
                  {group.name}
                  <span className="book-group-grades">{gradesLabel(group.grades)}</span>
                </h3>
                <ul className="book-list">
                  {group.books.map((book) => (
                    <BookCard key={book.id} book={book} onOpen={() => setOpened(book)} />
                  ))}
                </ul>
              </section>
            ))}
          </div>
        ) : (
          <div className="book-groups" aria-busy="true">
            {[1, 2, 3].map((n) => (
              <div key={n} className="book-group book-group-placeholder" />
            ))}
          </div>
        )}
      </div>
      {opened && <BookModal book={opened} onClose={() => setOpened(null)} />}
    </section>
  );
}
