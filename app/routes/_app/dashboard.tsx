export default function Page() {
  return <main className="p-6">In progress</main>;
}
