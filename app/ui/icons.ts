import {
  type IconNode,
  BadgeCheck as BadgeCheckShape,
  BarChart3 as BarChart3Shape,
  Bell as BellShape,
  Building2 as Building2Shape,
  Check as CheckShape,
  CheckCheck as CheckCheckShape,
  Clock as ClockShape,
  Download as DownloadShape,
  ExternalLink as ExternalLinkShape,
  FileBadge as FileBadgeShape,
  Heart as HeartShape,
  Image as ImageShape,
  LayoutDashboard as LayoutDashboardShape,
  Link2 as Link2Shape,
  ListMusic as ListMusicShape,
  Loader2 as Loader2Shape,
  LogOut as LogOutShape,
  Megaphone as MegaphoneShape,
  MessageCircle as MessageCircleShape,
  MessagesSquare as MessagesSquareShape,
  MonitorPlay as MonitorPlayShape,
  Music as MusicShape,
  Music2 as Music2Shape,
  PanelLeft as PanelLeftShape,
  Pause as PauseShape,
  Play as PlayShape,
  Printer as PrinterShape,
  RefreshCw as RefreshCwShape,
  Scissors as ScissorsShape,
  Search as SearchShape,
  Settings as SettingsShape,
  Share2 as Share2Shape,
  Shield as ShieldShape,
  SlidersHorizontal as SlidersHorizontalShape,
  Sparkles as SparklesShape,
  SquarePlay as SquarePlayShape,
  TrendingDown as TrendingDownShape,
  TrendingUp as TrendingUpShape,
  Unlink as UnlinkShape,
  Upload as UploadShape,
  User as UserShape,
  Users as UsersShape,
  Volume1 as Volume1Shape,
  Volume2 as Volume2Shape,
  VolumeX as VolumeXShape,
  Wallet as WalletShape,
  X as XShape,
} from "lucide";
import { createElement, type ReactElement, type SVGProps } from "react";
import { escapeXml } from "~/lib/public-pages";

// The app's icons: lucide's shapes (the `lucide` package: plain data, no component per icon),
// drawn as a lean <svg>. lucide-react wrote eleven attributes on every <svg> (xmlns, width,
// height, fill, stroke, stroke-width, stroke-linecap, stroke-linejoin, class, viewBox,
// aria-hidden) and ran a context lookup and class merge per icon; the ~25 icons of a signed-in
// page were a third of its elements and half of its attributes, rendered on the server for every
// request and hydrated in the browser (issue 12). Here the drawing style is one CSS rule (`.icon`
// in app/app.css, in the base layer so that size, fill and stroke utilities still win), and an
// <svg> has three attributes. Decorative unless given a label: aria-hidden like lucide-react.
// All icons live in this one module, so the browser fetches them as one small chunk.

export type IconProps = Omit<SVGProps<SVGSVGElement>, "children" | "ref">;
export type IconComponent = ((props: IconProps) => ReactElement) & { displayName: string };

/**
 * An icon's shapes as SVG markup, made once per icon. The <svg> carries them as its inner markup:
 * React writes one element and one string per icon instead of an element per path (a signed-in
 * page draws 25–100 icons, /music about 100: 250 of its 1,250 elements), and hydration does not
 * walk inside (docs/decisions/0280).
 */
export function shapeMarkup(shape: IconNode): string {
  return shape
    .map(([tag, attrs]) => {
      const attributes = Object.entries(attrs)
        .filter(([key, value]) => key !== "key" && value !== undefined)
        .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
        .join("");
      return `<${tag}${attributes}></${tag}>`;
    })
    .join("");
}

function icon(shape: IconNode, name: string): IconComponent {
  const inner = { __html: shapeMarkup(shape) };
  const Icon = ({ className, ...props }: IconProps) => {
    const labelled = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined || props.role !== undefined;
    // createElement rather than JSX: the <svg> is decorative (aria-hidden) or labelled by the caller.
    return createElement("svg", {
      viewBox: "0 0 24 24",
      "aria-hidden": labelled ? undefined : true,
      ...props,
      className: className ? `icon ${className}` : "icon",
      // lucide's constant shapes, escaped (shapeMarkup): no input reaches it.
      dangerouslySetInnerHTML: inner,
    });
  };
  Icon.displayName = name;
  return Icon;
}

export const BadgeCheck = icon(BadgeCheckShape, "BadgeCheck");
export const BarChart3 = icon(BarChart3Shape, "BarChart3");
export const Bell = icon(BellShape, "Bell");
export const Building2 = icon(Building2Shape, "Building2");
export const Check = icon(CheckShape, "Check");
export const CheckCheck = icon(CheckCheckShape, "CheckCheck");
export const Clock = icon(ClockShape, "Clock");
export const Download = icon(DownloadShape, "Download");
export const ExternalLink = icon(ExternalLinkShape, "ExternalLink");
export const FileBadge = icon(FileBadgeShape, "FileBadge");
export const Heart = icon(HeartShape, "Heart");
export const Image = icon(ImageShape, "Image");
export const LayoutDashboard = icon(LayoutDashboardShape, "LayoutDashboard");
export const Link2 = icon(Link2Shape, "Link2");
export const ListMusic = icon(ListMusicShape, "ListMusic");
export const Loader2 = icon(Loader2Shape, "Loader2");
export const LogOut = icon(LogOutShape, "LogOut");
export const Megaphone = icon(MegaphoneShape, "Megaphone");
export const MessageCircle = icon(MessageCircleShape, "MessageCircle");
export const MessagesSquare = icon(MessagesSquareShape, "MessagesSquare");
export const MonitorPlay = icon(MonitorPlayShape, "MonitorPlay");
export const Music = icon(MusicShape, "Music");
export const Music2 = icon(Music2Shape, "Music2");
export const PanelLeft = icon(PanelLeftShape, "PanelLeft");
export const Pause = icon(PauseShape, "Pause");
export const Play = icon(PlayShape, "Play");
export const Printer = icon(PrinterShape, "Printer");
export const RefreshCw = icon(RefreshCwShape, "RefreshCw");
export const Scissors = icon(ScissorsShape, "Scissors");
export const Search = icon(SearchShape, "Search");
export const Settings = icon(SettingsShape, "Settings");
export const Share2 = icon(Share2Shape, "Share2");
export const Shield = icon(ShieldShape, "Shield");
export const SlidersHorizontal = icon(SlidersHorizontalShape, "SlidersHorizontal");
export const Sparkles = icon(SparklesShape, "Sparkles");
export const SquarePlay = icon(SquarePlayShape, "SquarePlay");
export const TrendingDown = icon(TrendingDownShape, "TrendingDown");
export const TrendingUp = icon(TrendingUpShape, "TrendingUp");
export const Unlink = icon(UnlinkShape, "Unlink");
export const Upload = icon(UploadShape, "Upload");
export const User = icon(UserShape, "User");
export const Users = icon(UsersShape, "Users");
export const Volume1 = icon(Volume1Shape, "Volume1");
export const Volume2 = icon(Volume2Shape, "Volume2");
export const VolumeX = icon(VolumeXShape, "VolumeX");
export const Wallet = icon(WalletShape, "Wallet");
export const X = icon(XShape, "X");
