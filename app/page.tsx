export default function Home() {
  return <main>Kafka Security Console</main>;
}
