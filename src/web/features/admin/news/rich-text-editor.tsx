// The news body editor (tiptap): bold, italic, headings, lists, links and pictures, producing the
// HTML the server's sanitiser keeps (no code blocks, headings h2-h3). Loaded lazily by the news
// form, so neither families nor the back office's first screen download it.
import { useRef, type ReactNode } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Bold, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Redo2, Undo2 } from 'lucide-react';
import './rich-text-editor.css';

export interface RichTextEditorProps {
  /** The HTML to start from (read once, when the editor opens). */
  initialHtml: string;
  onChange: (html: string) => void;
  onBlur?: () => void;
  /** Id of the visible label of the field. */
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
  /** Uploads a picture and answers its address (/api/media/...); rejects with a shown message. */
  uploadImage: (file: File) => Promise<string>;
}

export default function RichTextEditor({ initialHtml, onChange, onBlur, labelId, describedBy, invalid, uploadImage }: RichTextEditorProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        // Links open in the same tab: the article page keeps our own links inside the app.
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https', HTMLAttributes: { target: null, rel: null } },
      }),
      Image.configure({ inline: false, allowBase64: false }),
    ],
    content: initialHtml,
    // The site's Content-Security-Policy refuses inline <style>: the same rules are in rich-text-editor.css.
    injectCSS: false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        class: 'rich-text-content article-body',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
    onBlur: () => onBlur?.(),
  });

  async function insertImage(file: File) {
    const alt = window.prompt('Mô tả ngắn của ảnh (cho người không xem được ảnh):', '') ?? '';
    try {
      const src = await uploadImage(file);
      editor.chain().focus().setImage({ src, alt: alt.trim() }).run();
    } catch {
      // uploadImage has already told the organiser why.
    }
  }

  function editLink() {
    const previous = (editor.getAttributes('link').href as string | undefined) ?? '';
    const href = window.prompt('Địa chỉ liên kết (để trống để bỏ liên kết):', previous);
    if (href === null) return;
    const chain = editor.chain().focus().extendMarkRange('link');
    if (href.trim() === '') chain.unsetLink().run();
    else chain.setLink({ href: href.trim() }).run();
  }

  return (
    <div className="rich-text" data-invalid={invalid ? 'true' : undefined}>
      <Toolbar editor={editor} onLink={editLink} onImage={() => fileInput.current?.click()} />
      <EditorContent editor={editor} />
      <input
        ref={fileInput}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void insertImage(file);
        }}
      />
    </div>
  );
}

function Toolbar({ editor, onLink, onImage }: { editor: Editor; onLink: () => void; onImage: () => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const run = () => editor.chain().focus();
  return (
    <div className="rich-text-toolbar" role="toolbar" aria-label="Định dạng nội dung">
      <ToolButton label="Đậm" pressed={state.bold} onClick={() => run().toggleBold().run()} icon={<Bold size={18} />} />
      <ToolButton label="Nghiêng" pressed={state.italic} onClick={() => run().toggleItalic().run()} icon={<Italic size={18} />} />
      <ToolButton label="Tiêu đề lớn" pressed={state.h2} onClick={() => run().toggleHeading({ level: 2 }).run()} icon={<Heading2 size={18} />} />
      <ToolButton label="Tiêu đề nhỏ" pressed={state.h3} onClick={() => run().toggleHeading({ level: 3 }).run()} icon={<Heading3 size={18} />} />
      <ToolButton label="Danh sách" pressed={state.bullet} onClick={() => run().toggleBulletList().run()} icon={<List size={18} />} />
      <ToolButton label="Danh sách đánh số" pressed={state.ordered} onClick={() => run().toggleOrderedList().run()} icon={<ListOrdered size={18} />} />
      <ToolButton label="Liên kết" pressed={state.link} onClick={onLink} icon={<Link2 size={18} />} />
      <ToolButton label="Chèn ảnh" onClick={onImage} icon={<ImagePlus size={18} />} />
      <ToolButton label="Hoàn tác" disabled={!state.canUndo} onClick={() => run().undo().run()} icon={<Undo2 size={18} />} />
      <ToolButton label="Làm lại" disabled={!state.canRedo} onClick={() => run().redo().run()} icon={<Redo2 size={18} />} />
    </div>
  );
}

function ToolButton({ label, icon, pressed, disabled, onClick }: { label: string; icon: ReactNode; pressed?: boolean; disabled?: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className="rich-text-button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keeps the text selection in the editor while the button is pressed.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      <span aria-hidden="true">{icon}</span>
    </button>
  );
}
